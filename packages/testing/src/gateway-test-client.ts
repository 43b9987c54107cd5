import WebSocket from 'ws';

/** A gateway payload as received. */
export interface Received {
  op: number;
  // Any shape: tests read fields off it freely, as the end-to-end tests do with JSON answers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  d: any;
  s: number | null;
  t: string | null;
}

/**
 * A minimal gateway client for tests: records every payload and the close code, and once
 * identified heartbeats at the interval Hello gave, as real clients do (else a test slowed
 * down by a busy machine would be closed 4009 while it works).
 */
export class GatewayTestClient {
  readonly received: Received[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly socket: WebSocket;
  private waiters: Array<() => void> = [];
  private heartbeats: NodeJS.Timeout | undefined;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as Received);
      this.waiters.splice(0).forEach((w) => w());
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        clearInterval(this.heartbeats);
        resolve({ code, reason: reason.toString() });
        this.waiters.splice(0).forEach((w) => w());
      }),
    );
  }

  /** Connects to `url?v=10&encoding=json`. */
  static async connect(url: string, query = 'v=10&encoding=json'): Promise<GatewayTestClient> {
    const socket = new WebSocket(`${url}/?${query}`);
    // Listening before 'open': Hello may arrive in the same tick.
    const client = new GatewayTestClient(socket);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return client;
  }

  send(payload: unknown): void {
    this.socket.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  close(code = 4000): void {
    clearInterval(this.heartbeats);
    this.socket.close(code);
  }

  /** The first payload (from `from` on) matching, waiting up to `timeoutMs`. */
  async next(match: (p: Received) => boolean, timeoutMs = 30_000, from = 0): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.slice(from).find(match);
      if (found) return found;
      if (this.socket.readyState === WebSocket.CLOSED)
        throw new Error(
          `closed before a match; got ${JSON.stringify(this.received.map((p) => p.t ?? p.op))}`,
        );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching payload within ${timeoutMs} ms; got ${JSON.stringify(this.received.map((p) => p.t ?? p.op))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next dispatch named `t`. */
  dispatch(t: string, timeoutMs?: number): Promise<Received> {
    return this.next((p) => p.op === 0 && p.t === t, timeoutMs);
  }

  /**
   * Identifies with a bot token and waits for READY; then heartbeats (with the last
   * sequence number) unless `heartbeat` is false.
   */
  async identify(
    token: string,
    extra: Record<string, unknown> = {},
    { heartbeat = true }: { heartbeat?: boolean } = {},
  ): Promise<Received> {
    const hello = await this.next((p) => p.op === 10);
    this.send({
      op: 2,
      d: { token, intents: 513, properties: { os: 'linux', browser: 'test', device: 'test' }, ...extra },
    });
    const ready = await this.dispatch('READY');
    if (heartbeat && this.socket.readyState === WebSocket.OPEN) {
      this.heartbeats = setInterval(() => {
        const seq = Math.max(0, ...this.received.map((p) => p.s ?? 0));
        if (this.socket.readyState === WebSocket.OPEN) this.send({ op: 1, d: seq });
      }, hello.d.heartbeat_interval as number);
      this.heartbeats.unref();
    }
    return ready;
  }
}
