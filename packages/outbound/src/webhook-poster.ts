import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import type { AddressPolicy } from './address-policy';
import { checkDestination, systemResolver, type Resolver } from './destination';

/** How one POST ended: the status, or why there was none. */
export type PostOutcome =
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string };

/** Bytes of an answer's body kept by default (a PONG is a few bytes; the rest is read and dropped). */
const MAX_ANSWER_BYTES = 16 * 1024;

/** Connection pools kept at most (one per destination: scheme, address, port, host, TLS name). */
const DEFAULT_MAX_POOLS = 512;
/** How long a pool nobody used is kept before its sockets are closed. */
const DEFAULT_POOL_IDLE_MS = 60_000;

/** Options of `WebhookPoster`. */
export interface WebhookPosterOptions {
  policy: AddressPolicy;
  /** How long the whole exchange (connect, send, read the answer) may take. */
  timeoutMs: number;
  /** Sockets kept per destination (the per-endpoint concurrency). */
  maxSocketsPerDestination: number;
  /** `User-Agent` of every request, unless its headers carry one; none when unset. */
  userAgent?: string;
  /**
   * Bytes of an answer's body kept (16 KiB by default); the rest is read and dropped. An
   * interactions endpoint's answer is the interaction's response, a whole message.
   */
  maxAnswerBytes?: number;
  resolve?: Resolver;
  /** Connection pools kept at most (512 by default); the least recently used one goes first. */
  maxPools?: number;
  /** How long an unused pool is kept (60 s by default). */
  poolIdleMs?: number;
}

/** Closes a pool that left the cache: its idle sockets now, busy ones after their answer. */
function retire(agent: http.Agent): void {
  for (const sockets of Object.values(agent.freeSockets))
    for (const socket of sockets ?? []) socket.destroy();
  const busy = Object.values(agent.sockets).some((sockets) => (sockets?.length ?? 0) > 0);
  if (!busy) agent.destroy();
  // A busy pool's sockets return to it after their answer and close at its idle timeout.
}

/**
 * POSTs bodies to apps' URLs (webhook events and interactions alike) safely: http(s)
 * only; the host is resolved at every request and every address it resolves to must pass
 * the address policy (so a DNS answer that turns private later is caught); the
 * connection goes to the address that was checked (no second lookup); redirects are
 * answers like any other (never followed); the whole exchange must end within the timeout.
 */
export class WebhookPoster {
  private readonly agents: LRUCache<string, http.Agent>;
  private readonly resolve: Resolver;

  constructor(private readonly options: WebhookPosterOptions) {
    this.resolve = options.resolve ?? systemResolver;
    // Bounded: any app can name new destinations, and each pool holds memory and sockets.
    this.agents = new LRUCache<string, http.Agent>({
      max: options.maxPools ?? DEFAULT_MAX_POOLS,
      ttl: options.poolIdleMs ?? DEFAULT_POOL_IDLE_MS,
      updateAgeOnGet: true,
      ttlAutopurge: true,
      dispose: (agent) => retire(agent),
    });
  }

  /** Connection pools kept now (for tests and metrics). */
  get poolCount(): number {
    return this.agents.size;
  }

  /** Sends `body` with `headers`; never throws (a failure of its own is a `failed` outcome). */
  async post(target: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
    try {
      return await this.attempt(target, body, headers);
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private async attempt(target: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
    const destination = await checkDestination(target, this.options.policy, this.resolve);
    if (destination.kind !== 'checked') return destination;
    return this.send(destination.url, destination.host, destination.address, body, headers);
  }

  /** Closes kept-alive sockets. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private send(
    url: URL,
    host: string,
    address: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<PostOutcome> {
    const isHttps = url.protocol === 'https:';
    const port = Number(url.port || (isHttps ? 443 : 80));
    // TLS verifies the certificate against this name, while the socket goes to the checked address.
    const servername = isHttps && !isIP(host) ? host : undefined;
    // Everything that makes one connection unlike another: a pool is never shared by two of them.
    const agent = this.agentFor(
      isHttps,
      JSON.stringify([url.protocol, address, port, url.host, servername ?? null]),
    );
    return new Promise((resolve) => {
      const payload = Buffer.from(body);
      const request = (isHttps ? https : http).request({
        method: 'POST',
        host: address,
        port,
        path: `${url.pathname}${url.search}`,
        agent,
        ...(isHttps ? { servername } : {}),
        headers: {
          ...(this.options.userAgent === undefined ? {} : { 'user-agent': this.options.userAgent }),
          ...headers,
          host: url.host,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      request.on('response', (response) => {
        const kept: Buffer[] = [];
        const limit = this.options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < limit) kept.push(chunk.subarray(0, limit - size));
          size += chunk.length;
        });
        response.on('end', () => {
          clearTimeout(timer);
          resolve({
            kind: 'answered',
            status: response.statusCode ?? 0,
            body: Buffer.concat(kept).toString('utf8'),
          });
        });
        response.on('error', (error) => {
          clearTimeout(timer);
          resolve({ kind: 'failed', reason: error.message });
        });
      });
      request.on('error', (error) => {
        clearTimeout(timer);
        resolve({ kind: 'failed', reason: error.message });
      });
      request.end(payload);
    });
  }

  private agentFor(isHttps: boolean, key: string): http.Agent {
    let agent = this.agents.get(key);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: this.options.maxSocketsPerDestination, timeout: 30_000 };
      agent = isHttps ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }
}
