import WebSocket from 'ws';

/** A gateway dispatch as received (op 0). */
export interface Dispatch {
  t: string;
  // Discord's JSON of any shape: the kit reads fields off it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  d: any;
}

/** The chat client's capabilities a user session identifies with (every one the dispatcher knows). */
const CLIENT_CAPABILITIES = 16381;

/**
 * A user's gateway session, as the chat client keeps one: identified with the user's
 * session token, heartbeating at Hello's interval, keeping every dispatch it receives so
 * that an interaction's answers (INTERACTION_SUCCESS, MESSAGE_CREATE, MESSAGE_UPDATE of a
 * deferred reply or an edit) are seen whenever they arrive.
 */
export class UserSession {
  readonly dispatches: Dispatch[] = [];
  sessionId = '';
  private readonly listeners = new Set<(dispatch: Dispatch) => void>();
  private heartbeat: NodeJS.Timeout | undefined;
  private sequence: number | null = null;
  private closedWith: string | undefined;

  private constructor(private readonly socket: WebSocket) {}

  /** Connects to the gateway at `url` and identifies with `token`; resolves at READY. */
  static async open(url: string, token: string, timeoutMs = 15_000): Promise<UserSession> {
    const socket = new WebSocket(`${url.replace(/\/+$/, '')}/?v=10&encoding=json`);
    const session = new UserSession(socket);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error(`the gateway at ${url} did not send READY within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.on('message', (data) => {
        const payload = JSON.parse(String(data)) as {
          op: number;
          d: unknown;
          s: number | null;
          t: string | null;
        };
        if (payload.s !== null && payload.s !== undefined) session.sequence = payload.s;
        if (payload.op === 10) {
          const interval = (payload.d as { heartbeat_interval: number }).heartbeat_interval;
          session.heartbeat = setInterval(() => session.send({ op: 1, d: session.sequence }), interval);
          session.heartbeat.unref();
          session.send({
            op: 2,
            d: {
              token,
              capabilities: CLIENT_CAPABILITIES,
              properties: { os: process.platform, browser: 'acs-testkit', device: 'acs-testkit' },
            },
          });
        } else if (payload.op === 0 && payload.t) {
          const dispatch = { t: payload.t, d: payload.d as Dispatch['d'] };
          if (payload.t === 'READY') {
            session.sessionId = String(dispatch.d.session_id);
            clearTimeout(timer);
            resolve();
          }
          session.dispatches.push(dispatch);
          for (const listener of session.listeners) listener(dispatch);
        }
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`could not connect to the gateway at ${url}: ${error.message}`));
      });
      socket.once('close', (code, reason) => {
        clearInterval(session.heartbeat);
        session.closedWith = `${code}${reason.length ? ` ${String(reason)}` : ''}`;
        clearTimeout(timer);
        reject(new Error(`the gateway closed the session before READY: ${session.closedWith}`));
      });
    });
    return session;
  }

  /** Why the session ended (close code and reason), or undefined while it is open. */
  get closed(): string | undefined {
    return this.closedWith;
  }

  /** Calls `listener` with each dispatch from now on; answers how to stop. */
  listen(listener: (dispatch: Dispatch) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearInterval(this.heartbeat);
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING)
      this.socket.close(1000);
  }

  private send(payload: unknown): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(payload));
  }
}
