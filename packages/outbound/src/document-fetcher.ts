import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy';
import { checkDestination, systemResolver, type Resolver } from './destination';

/** How one GET ended: a whole answer, or why there was none. */
export type FetchOutcome =
  | { kind: 'answered'; status: number; contentType: string; body: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string };

/** Options of `DocumentFetcher`. */
export interface DocumentFetcherOptions {
  policy: AddressPolicy;
  /** How long the whole exchange (resolve, connect, send, read the answer) may take. */
  timeoutMs: number;
  /** The largest body accepted: a longer answer is a failure, and reading stops at once. */
  maxBytes: number;
  /** `User-Agent` of every request; none when unset. */
  userAgent?: string;
  resolve?: Resolver;
}

/**
 * GETs small documents from URLs others name (an OpenID provider's discovery document and
 * JWKS) under the same rules as `WebhookPoster`: http(s) only, every resolved address
 * allowed by the policy, the socket to the checked address; redirects are answers, never
 * followed; the whole exchange ends within `timeoutMs`, and an answer over `maxBytes` is
 * dropped as soon as it is seen to be (its declared length or the bytes read), so a huge
 * or endless document costs at most `maxBytes` of memory. No connection is kept: these
 * fetches are rare (their results are cached by the caller). It never throws.
 */
export class DocumentFetcher {
  private readonly resolve: Resolver;

  constructor(private readonly options: DocumentFetcherOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Fetches `target`; never throws. */
  async get(target: string, headers: Record<string, string> = {}): Promise<FetchOutcome> {
    const deadline = Date.now() + this.options.timeoutMs;
    try {
      const destination = await withDeadline(
        checkDestination(target, this.options.policy, this.resolve),
        deadline,
        this.options.timeoutMs,
      );
      if (destination.kind !== 'checked') return destination;
      return await this.send(destination.url, destination.host, destination.address, headers, deadline);
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private send(
    url: URL,
    host: string,
    address: string,
    headers: Record<string, string>,
    deadline: number,
  ): Promise<FetchOutcome> {
    const isHttps = url.protocol === 'https:';
    const { maxBytes, timeoutMs } = this.options;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: FetchOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = (isHttps ? https : http).request({
        method: 'GET',
        host: address,
        port: Number(url.port || (isHttps ? 443 : 80)),
        path: `${url.pathname}${url.search}`,
        agent: false,
        // TLS verifies the certificate against the name, while the socket goes to the checked address.
        ...(isHttps && !isIP(host) ? { servername: host } : {}),
        headers: {
          ...(this.options.userAgent === undefined ? {} : { 'user-agent': this.options.userAgent }),
          accept: 'application/json',
          ...headers,
          host: url.host,
        },
      });
      const timer = setTimeout(
        () => {
          finish({ kind: 'failed', reason: `no whole answer within ${timeoutMs} ms` });
          request.destroy();
        },
        Math.max(0, deadline - Date.now()),
      );
      const tooLarge = () => {
        finish({ kind: 'failed', reason: `the answer is larger than ${maxBytes} bytes` });
        request.destroy();
      };
      request.on('response', (response) => {
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
        const kept: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return tooLarge();
          kept.push(chunk);
        });
        response.on('end', () =>
          finish({
            kind: 'answered',
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(kept).toString('utf8'),
          }),
        );
        response.on('error', (error) => finish({ kind: 'failed', reason: error.message }));
      });
      request.on('error', (error) => finish({ kind: 'failed', reason: error.message }));
      request.end();
    });
  }
}

/** `work`, or a rejection once `deadline` passes (a DNS lookup that hangs). */
async function withDeadline<T>(work: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no whole answer within ${timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
