import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server, which a test can cut and restore: the machine's NATS
 * is shared, so an outage is simulated here instead of stopping it. It keeps its port
 * (chosen by the OS) from `open` to `close`: while cut, it closes every connection at
 * once rather than releasing the port, which another process could take meanwhile.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private isCut = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts accepting connections, or accepts them again after `cut`. */
  async open(): Promise<void> {
    this.isCut = false;
    if (this.server) return;
    const server = createServer((client) => {
      if (this.isCut) {
        client.destroy();
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    this.server = server;
  }

  /** Drops every connection and closes each new one at once, until `open`. */
  async cut(): Promise<void> {
    this.isCut = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** Drops every connection and stops listening. */
  async close(): Promise<void> {
    await this.cut();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
