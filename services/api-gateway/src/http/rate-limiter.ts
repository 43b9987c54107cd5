import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { DiscordError, type DiscordErrorBody } from '@acs/discord-errors';
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

interface Window {
  started: number;
  count: number;
}

/** Discord's top-level resources partition buckets: a guild's commands are counted apart from another guild's. */
const MAJOR_PARAMETERS = ['guild_id', 'channel_id', 'webhook_id'];

/** What a route takes in its Authorization header, if anything: a token, or a token or a user's session. */
export type RouteCredential = 'token' | 'token-or-session';

/**
 * Who a request is counted as, for a route that takes a credential: the credential's key
 * when it resolves to a principal, undefined otherwise. With `lookup` false, only what is
 * known without asking oauth.
 */
export type IdentifyCaller = (
  req: Request,
  options: { allowUserSession: boolean; lookup: boolean },
) => Promise<string | undefined>;

/**
 * Fixed-window counters per caller: one global window of a second, and one per route and
 * major parameter. The caller is the credential (its key, the same for every spelling of
 * one token) when the Authorization header is a credential of the route that resolves to
 * a principal; otherwise — no header, a route that takes none, a malformed, unknown or
 * unresolvable one — the client's address (`req.ip`, IPv6 by its /64), so that a client
 * rotating made-up headers is one caller, not a fresh bucket per header. A credential not
 * known yet is looked up (one shared ResolveToken) only while its address is within its
 * limits: an address that spent them gets its 429 without costing oauth a call.
 *
 * Every answer carries the route bucket's `X-RateLimit-*` headers; a 429 also carries
 * `Retry-After`, `X-RateLimit-Scope`, `X-RateLimit-Global` when global, and `Via`
 * (discord.py treats a 429 without `Via` as a Cloudflare ban). Counters are per gateway
 * process: with N replicas behind a balancer a client gets up to N times the limit.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private sweptAt = 0;

  constructor(
    private readonly limits: RateLimits,
    private readonly identify: IdentifyCaller = async () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The middleware for one route; `routeId` is its method and path pattern, `credential` what it takes. */
  forRoute(routeId: string, credential?: RouteCredential): RequestHandler {
    const bucket = createHash('sha256').update(routeId).digest('hex').slice(0, 32);
    return (req, res, next) => {
      this.callerOf(req, routeId, credential).then((caller) => {
        try {
          this.check(req, res, caller, routeId, bucket);
          next();
        } catch (error) {
          next(error);
        }
      }, next);
    };
  }

  private async callerOf(req: Request, routeId: string, credential?: RouteCredential): Promise<string> {
    const address = `ip:${clientOf(req.ip) ?? ''}`;
    if (credential === undefined || !req.headers.authorization) return address;
    const key = await this.identify(req, {
      allowUserSession: credential === 'token-or-session',
      lookup: !this.isSpent(address, routeId, req),
    });
    return key ?? address;
  }

  /** Whether a caller has no request left in its global window or this route's. */
  private isSpent(caller: string, routeId: string, req: Request): boolean {
    const now = this.now();
    const { globalPerSecond, routeLimit, routeWindowSeconds } = this.limits;
    const spent = (key: string, limit: number, length: number): boolean => {
      const window = this.windows.get(key);
      return limit > 0 && window !== undefined && now - window.started < length && window.count >= limit;
    };
    return (
      spent(`g:${caller}`, globalPerSecond, 1000) ||
      spent(`r:${caller}:${routeId}:${majorOf(req)}`, routeLimit, routeWindowSeconds * 1000)
    );
  }

  private check(req: Request, res: Response, caller: string, routeId: string, bucket: string): void {
    const now = this.now();
    this.sweep(now);
    const { globalPerSecond, routeLimit, routeWindowSeconds } = this.limits;

    if (routeLimit > 0) {
      const window = this.hit(`r:${caller}:${routeId}:${majorOf(req)}`, now, routeWindowSeconds * 1000);
      const resetAfter = Math.max(0, window.started + routeWindowSeconds * 1000 - now) / 1000;
      res.setHeader('X-RateLimit-Limit', String(routeLimit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, routeLimit - window.count)));
      res.setHeader('X-RateLimit-Reset', (now / 1000 + resetAfter).toFixed(3));
      res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
      res.setHeader('X-RateLimit-Bucket', bucket);
      if (window.count > routeLimit) throw markRateLimited(res, resetAfter, 'user');
    }
    if (globalPerSecond > 0) {
      const window = this.hit(`g:${caller}`, now, 1000);
      if (window.count > globalPerSecond) {
        throw markRateLimited(res, Math.max(0, window.started + 1000 - now) / 1000, 'global');
      }
    }
  }

  private hit(key: string, now: number, length: number): Window {
    let window = this.windows.get(key);
    if (!window || now - window.started >= length) {
      window = { started: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  // Drops windows that ended long ago, at most once a minute, so memory follows live clients.
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    const horizon = Math.max(60, this.limits.routeWindowSeconds) * 1000;
    for (const [key, window] of this.windows) if (now - window.started > horizon) this.windows.delete(key);
  }
}

/** The route's top-level resource, whose requests are counted apart. */
function majorOf(req: Request): string {
  return String(MAJOR_PARAMETERS.map((p) => req.params[p]).find((v) => v !== undefined) ?? '');
}
