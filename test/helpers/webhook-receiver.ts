import { createServer, type IncomingMessage, type Server } from 'node:http';
import { verifyKey } from 'discord-interactions';

/** One request the receiver got, with what it made of it. */
export interface ReceivedWebhook {
  at: number;
  eventId: string | undefined;
  timestamp: string;
  signatureValid: boolean;
  body: any;
  status: number;
}

/**
 * An app's event endpoint for tests: verifies every signature with discord-interactions'
 * verifyKey (401 when invalid, as apps must), answers PING with 204, and answers events
 * as `respond` says (a status, or 'stall' for no answer).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: (request: ReceivedWebhook, attempt: number) => number | 'stall' = () => 204;
  /** Whether signatures are checked (a careless receiver accepts anything). */
  checkSignatures = true;
  /** PING answer (a broken receiver answers 200). */
  pingStatus = 204;
  private server!: Server;
  url = '';

  constructor(private readonly publicKey: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/events`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The event deliveries (not PINGs) that carried a valid signature. */
  events(): ReceivedWebhook[] {
    return this.received.filter((r) => r.body?.type === 1 && r.signatureValid);
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const signature = String(req.headers['x-signature-ed25519'] ?? '');
    const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
    const signatureValid = await verifyKey(raw, signature, timestamp, this.publicKey);
    const entry: ReceivedWebhook = {
      at: Date.now(),
      eventId: req.headers['x-event-id'] as string | undefined,
      timestamp,
      signatureValid,
      body: JSON.parse(raw.toString() || 'null'),
      status: 0,
    };
    this.received.push(entry);
    if (this.checkSignatures && !signatureValid) {
      entry.status = 401;
      res.writeHead(401).end('invalid request signature');
      return;
    }
    if (entry.body?.type === 0) {
      entry.status = this.pingStatus;
      res.writeHead(this.pingStatus).end();
      return;
    }
    const attempt = this.received.filter((r) => r.eventId === entry.eventId).length;
    const answer = this.respond(entry, attempt);
    if (answer === 'stall') return; // never answers; the dispatcher times out
    entry.status = answer;
    res.writeHead(answer).end();
  }
}
