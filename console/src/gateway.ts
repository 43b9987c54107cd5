/** A gateway dispatch (op 0). */
export interface Dispatch {
  t: string;
  d: any;
}

/** The chat client's capabilities a user session identifies with. */
const CLIENT_CAPABILITIES = 16381;

/**
 * The viewer's gateway session, as the chat client keeps one: identified with the user's
 * session token, heartbeating at Hello's interval, handing each dispatch to `onDispatch`.
 * Resolves at READY (its session_id names the session in interactions).
 */
export class ViewerSession {
  sessionId = '';
  ready: any = null;
  private heartbeat: number | undefined;
  private sequence: number | null = null;
  private closedByUs = false;
  /** Why the session ended, once it has. */
  closed: string | undefined;

  private constructor(
    private readonly socket: WebSocket,
    private readonly onDispatch: (dispatch: Dispatch) => void,
  ) {}

  static open(
    url: string,
    token: string,
    onDispatch: (d: Dispatch) => void,
    onClose: (why: string) => void,
  ): Promise<ViewerSession> {
    const socket = new WebSocket(`${url.replace(/\/+$/, '')}/?v=10&encoding=json`);
    const session = new ViewerSession(socket, onDispatch);
    return new Promise((resolve, reject) => {
      let isReady = false;
      socket.addEventListener('message', (event) => {
        const payload = JSON.parse(String(event.data)) as {
          op: number;
          d: any;
          s: number | null;
          t: string | null;
        };
        if (payload.s !== null && payload.s !== undefined) session.sequence = payload.s;
        if (payload.op === 10) {
          session.heartbeat = window.setInterval(
            () => session.send({ op: 1, d: session.sequence }),
            payload.d.heartbeat_interval,
          );
          session.send({
            op: 2,
            d: {
              token,
              capabilities: CLIENT_CAPABILITIES,
              properties: { os: 'browser', browser: 'acs-console', device: 'acs-console' },
            },
          });
        } else if (payload.op === 0 && payload.t) {
          if (payload.t === 'READY') {
            session.sessionId = String(payload.d.session_id);
            session.ready = payload.d;
            isReady = true;
            resolve(session);
          }
          session.onDispatch({ t: payload.t, d: payload.d });
        }
      });
      socket.addEventListener('close', (event) => {
        window.clearInterval(session.heartbeat);
        const why = `${event.code}${event.reason ? ` ${event.reason}` : ''}`;
        session.closed = why;
        if (!isReady) reject(new Error(`the gateway closed the session before READY: ${why}`));
        else if (!session.closedByUs) onClose(why);
      });
    });
  }

  close(): void {
    this.closedByUs = true;
    this.closed ??= 'closed by the console';
    window.clearInterval(this.heartbeat);
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING)
      this.socket.close(1000);
  }

  private send(payload: unknown): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(payload));
  }
}
