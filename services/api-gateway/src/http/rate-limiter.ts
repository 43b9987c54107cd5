import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { DiscordError, type DiscordErrorBody } from '@acs/discord-errors';
import { FixedWindows } from '../domain/fixed-windows';
import { clientOf } from './client-of';

/** Limits of the public API (D: topics/rate-limits). */
export interface RateLimits {
  /** Requests per second per credential across all routes (Discord: 50 per bot); 0 = off. */
  globalPerSecond: number;
  /** Requests per credential, per route and top-level resource, in each window; 0 = off. */
  routeLimit: number;
  routeWindowSeconds: number;
}

/** 429 with Discord's body `{message, retry_after, global}` (no `code`, as the real API sends it). */
export class RateLimitedError extends DiscordError {
  constructor(
    readonly retryAfter: number,
    readonly global: boolean,
  ) {
    super(429, 0, 'You are being rate limited.');
  }

  override toBody(): DiscordErrorBody {
    return {
      message: this.message,
      retry_after: this.retryAfter,
      global: this.global,
    } as unknown as DiscordErrorBody;
  }
}

/**
 * Sets the headers of a 429 and returns its error, for the one renderer to write:
 * `Retry-After` (whole seconds, rounded up), `X-RateLimit-Scope`, `X-RateLimit-Global` when
 * global, and `Via`, without which discord.py takes a 429 for a Cloudflare ban and raises
 * instead of waiting (real-clients.md, 429 responses).
 */
export function markRateLimited(
  res: Response,
  retryAfter: number,
  scope: 'user' | 'global',
): RateLimitedError {
  const seconds = Math.max(retryAfter, 0.001);
  res.setHeader('Retry-After', String(Math.ceil(seconds)));
  res.setHeader('X-RateLimit-Scope', scope);
  if (scope === 'global') res.setHeader('X-RateLimit-Global', 'true');
  res.setHeader('Via', '1.1 acs');
  return new RateLimitedError(Number(seconds.toFixed(3)), scope === 'global');
}

/**
 * Discord's top-level resources (major parameters), which partition a route's buckets: a
 * guild's commands are counted apart from another guild's. The first group whose
 * parameters the route has decides. A webhook is its id and token together ("webhook_id
 * + webhook_token", D: topics/rate-limits), which an interaction's webhook routes share
 * (the application id is the webhook id there). The callback route is partitioned the
 * same way, by interaction id and token: an app answering many interactions at once is
 * counted per interaction, as @discordjs/rest expects (it sends callbacks at once,
 * without queueing them behind a shared bucket).
 */
const MAJOR_PARAMETERS = [
  ['guild_id'],
  ['channel_id'],
  ['webhook_id', 'webhook_token'],
  ['interaction_id', 'interaction_token'],
];

/**
 * What a route takes in its Authorization header, if anything: a token, a token or a
 * user's session, or a user's session only.
 */
export type RouteCredential = 'token' | 'token-or-session' | 'session';

/** How a route is counted beyond its own buckets. */
export interface RouteLimitOptions {
  /**
   * Whether the caller's global window applies (true by default). Interaction routes are
   * exempt, as on Discord (D: topics/rate-limits: "Interaction endpoints are not bound to
   * the bot's Global Rate Limit"): an app answering many interactions is never held back
   * by its other requests, nor they by it.
   */
  global?: boolean;
}

/**
 * Who a request is counted as, for a route that takes a credential: the credential's key
 * when it resolves to a principal, undefined otherwise. With `lookup` false, only what is
 * known without asking oauth.
 */
export type IdentifyCaller = (
  req: Request,
  options: { allowUserSession: boolean; sessionOnly?: boolean; lookup: boolean },
) => Promise<string | undefined>;

/**
 * Fixed-window counters per caller: one global window of a second (which interaction
 * routes are exempt from), and one per route and major parameter. The caller is the
 * credential (its key, the same for every spelling of one token) when the Authorization
 * header is a credential of the route that resolves to a principal; otherwise — no
 * header, a route that takes none, a malformed, unknown or unresolvable one — the
 * client's address (`req.ip`, IPv6 by its /64), so that a client rotating made-up headers
 * is one caller, not a fresh bucket per header. A credential not known yet is looked up
 * (one shared ResolveToken) only while its address is within its limits: an address that
 * spent them gets its 429 without costing oauth a call.
 *
 * Every answer carries the route bucket's `X-RateLimit-*` headers; a 429 also carries
 * `Retry-After`, `X-RateLimit-Scope`, `X-RateLimit-Global` when global, and `Via`
 * (discord.py treats a 429 without `Via` as a Cloudflare ban). Counters are per gateway
 * process: with N replicas behind a balancer a client gets up to N times the limit.
 */
export class RateLimiter {
  private readonly windows = new FixedWindows();

  constructor(
    private readonly limits: RateLimits,
    private readonly identify: IdentifyCaller = async () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The middleware for one route; `routeId` is its method and path pattern, `credential`
   * what it takes, `options` whether the global window applies.
   */
  forRoute(routeId: string, credential?: RouteCredential, options: RouteLimitOptions = {}): RequestHandler {
    const bucket = createHash('sha256').update(routeId).digest('hex').slice(0, 32);
    const global = options.global ?? true;
    return (req, res, next) => {
      this.callerOf(req, routeId, credential, global).then((caller) => {
        try {
          this.check(req, res, caller, routeId, bucket, global);
          next();
        } catch (error) {
          next(error);
        }
      }, next);
    };
  }

  private async callerOf(
    req: Request,
    routeId: string,
    credential: RouteCredential | undefined,
    global: boolean,
  ): Promise<string> {
    const address = `ip:${clientOf(req.ip) ?? ''}`;
    if (credential === undefined || !req.headers.authorization) return address;
    const key = await this.identify(req, {
      allowUserSession: credential !== 'token',
      sessionOnly: credential === 'session',
      lookup: !this.isSpent(address, routeId, req, global),
    });
    return key ?? address;
  }

  /** Whether a caller has no request left in its global window (where it applies) or this route's. */
  private isSpent(caller: string, routeId: string, req: Request, global: boolean): boolean {
    const now = this.now();
    const { globalPerSecond, routeLimit, routeWindowSeconds } = this.limits;
    return (
      (global && this.windows.isFull(`g:${caller}`, now, 1000, globalPerSecond)) ||
      this.windows.isFull(
        `r:${caller}:${routeId}:${majorOf(req)}`,
        now,
        routeWindowSeconds * 1000,
        routeLimit,
      )
    );
  }

  private check(
    req: Request,
    res: Response,
    caller: string,
    routeId: string,
    bucket: string,
    global: boolean,
  ): void {
    const now = this.now();
    const { globalPerSecond, routeLimit, routeWindowSeconds } = this.limits;
    // Windows that ended long ago go, so memory follows live clients.
    this.windows.sweep(now, Math.max(60, routeWindowSeconds) * 1000);

    if (routeLimit > 0) {
      const window = this.windows.hit(
        `r:${caller}:${routeId}:${majorOf(req)}`,
        now,
        routeWindowSeconds * 1000,
      );
      const resetAfter = Math.max(0, window.started + routeWindowSeconds * 1000 - now) / 1000;
      res.setHeader('X-RateLimit-Limit', String(routeLimit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, routeLimit - window.count)));
      res.setHeader('X-RateLimit-Reset', (now / 1000 + resetAfter).toFixed(3));
      res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
      res.setHeader('X-RateLimit-Bucket', bucket);
      if (window.count > routeLimit) throw markRateLimited(res, resetAfter, 'user');
    }
    if (global && globalPerSecond > 0) {
      const window = this.windows.hit(`g:${caller}`, now, 1000);
      if (window.count > globalPerSecond) {
        throw markRateLimited(res, Math.max(0, window.started + 1000 - now) / 1000, 'global');
      }
    }
  }
}

/**
 * The route's top-level resource, whose requests are counted apart. A webhook's or an
 * interaction's token is a credential: the key holds its hash, never the token itself.
 */
function majorOf(req: Request): string {
  for (const group of MAJOR_PARAMETERS) {
    const values = group.map((p) => req.params[p]).filter((v) => v !== undefined);
    if (values.length === 0) continue;
    return group.length === 1
      ? String(values[0])
      : createHash('sha256').update(values.join('/')).digest('base64');
  }
  return '';
}
