import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { DiscordError, type DiscordErrorBody } from '@acs/discord-errors';
import { readCredential } from '../auth/read-credential';

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

/**
 * Fixed-window counters per credential (the Authorization header's key, the same for
 * every spelling of one token, or the client address without one): one global window of
 * a second, and one per route and major parameter. Every answer carries the route
 * bucket's `X-RateLimit-*` headers; a 429 also carries `Retry-After`, `X-RateLimit-Scope`,
 * `X-RateLimit-Global` when global, and `Via` (discord.py treats a 429 without `Via` as a
 * Cloudflare ban). Counters are per gateway process: with N replicas behind a balancer a
 * client gets up to N times the limit.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private sweptAt = 0;

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** The middleware for one route; `routeId` is its method and path pattern. */
  forRoute(routeId: string): RequestHandler {
    const bucket = createHash('sha256').update(routeId).digest('hex').slice(0, 32);
    return (req, res, next) => {
      try {
        this.check(req, res, routeId, bucket);
        next();
      } catch (error) {
        next(error);
      }
    };
  }

  private check(req: Request, res: Response, routeId: string, bucket: string): void {
    const now = this.now();
    this.sweep(now);
    const credential = credentialOf(req);
    const { globalPerSecond, routeLimit, routeWindowSeconds } = this.limits;

    if (routeLimit > 0) {
      const major = MAJOR_PARAMETERS.map((p) => req.params[p]).find((v) => v !== undefined) ?? '';
      const window = this.hit(`r:${credential}:${routeId}:${major}`, now, routeWindowSeconds * 1000);
      const resetAfter = Math.max(0, window.started + routeWindowSeconds * 1000 - now) / 1000;
      res.setHeader('X-RateLimit-Limit', String(routeLimit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, routeLimit - window.count)));
      res.setHeader('X-RateLimit-Reset', (now / 1000 + resetAfter).toFixed(3));
      res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
      res.setHeader('X-RateLimit-Bucket', bucket);
      if (window.count > routeLimit) throw markRateLimited(res, resetAfter, 'user');
    }
    if (globalPerSecond > 0) {
      const window = this.hit(`g:${credential}`, now, 1000);
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

function credentialOf(req: Request): string {
  const header = req.headers.authorization;
  return header ? readCredential(header).key : `ip:${req.ip ?? ''}`;
}
