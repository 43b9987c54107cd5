import { createServer, type IncomingMessage, type Server } from 'node:http';
import { verifyKey } from 'discord-interactions';

/** What the endpoint answers one interaction: a JSON body with 200, a bare status (202: "I will call back"), or nothing. */
export type EndpointAnswer = { status: 200; body: unknown } | { status: number } | 'stall';

/**
 * An app's Interactions Endpoint URL for tests, written as apps write one: every request
 * is verified with discord-interactions' `verifyKey` (401 when the signature is wrong),
 * PING is answered with PONG, and each interaction gets what `answer` returns.
 */
export class InteractionsEndpoint {
  /** The verified interactions received (PINGs excluded), in order. */
  readonly received: any[] = [];
  /** Requests refused for a bad signature. */
  refused = 0;
  answer: (interaction: any) => EndpointAnswer | Promise<EndpointAnswer> = () => ({
    status: 200,
    body: { type: 4, data: { content: 'ok' } },
  });
  url = '';
  private server!: Server;
  private waiters: Array<() => void> = [];

  constructor(private readonly publicKey: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        (answer) => {
          if (answer === 'stall') return;
          if ('body' in answer) {
            res
              .writeHead(answer.status, { 'Content-Type': 'application/json' })
              .end(JSON.stringify(answer.body));
          } else res.writeHead(answer.status).end();
        },
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/interactions`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next interaction received after `from` (an index into `received`). */
  async next(from = this.received.length, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length <= from) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no interaction reached the endpoint within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received[from];
  }

  private async handle(req: IncomingMessage): Promise<EndpointAnswer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const signature = req.headers['x-signature-ed25519'];
    const timestamp = req.headers['x-signature-timestamp'];
    const valid =
      typeof signature === 'string' &&
      typeof timestamp === 'string' &&
      (await verifyKey(raw, signature, timestamp, this.publicKey));
    if (!valid) {
      this.refused++;
      return { status: 401 };
    }
    const interaction = JSON.parse(raw.toString('utf8'));
    if (interaction.type === 1) return { status: 200, body: { type: 1 } };
    this.received.push(interaction);
    for (const wake of this.waiters.splice(0)) wake();
    return this.answer(interaction);
  }
}
