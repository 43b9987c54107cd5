import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { createLimitCounters, type CountedLimit, type LimitCounters } from '../store/limit-counters';
import { markRateLimited } from './rate-limiter';

/** A limit per application of one route: `limit` requests in each window of `windowSeconds`. */
export interface ApplicationLimit {
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed windows per application and route, for limits Discord sets per application rather
 * than per credential (the lobby development limits: every user's Bearer token of one game
 * counts toward one bucket, interactions-lobbies-monetization.md §B2). Checked by the route
 * once it knows the caller's application; a 429 carries the bucket's headers and scope
 * `shared` is not claimed: the bucket is the application's own. A limit of 0 is off.
 * The windows count in `counters`, like the other rate limits: in Redis, shared by every
 * replica, when the gateway has one.
 */
export class ApplicationRateLimiter {
  private readonly limits = new Map<string, CountedLimit>();

  constructor(
    private readonly counters: LimitCounters = createLimitCounters({ keyPrefix: '', replicas: 1 }),
  ) {}

  /** Counts one request of `applicationId` on `routeId`; throws the 429 past the limit. */
  async hit(
    res: Response,
    routeId: string,
    applicationId: string,
    { limit, windowSeconds }: ApplicationLimit,
  ): Promise<void> {
    if (limit <= 0) return;
    const window = await this.limitOf(limit, windowSeconds).hit(`${applicationId}:${routeId}`);
    const resetAfter = window.resetAfterMs / 1000;
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(window.remaining));
    res.setHeader('X-RateLimit-Reset', (Date.now() / 1000 + resetAfter).toFixed(3));
    res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
    res.setHeader(
      'X-RateLimit-Bucket',
      createHash('sha256').update(`app ${routeId}`).digest('hex').slice(0, 32),
    );
    if (!window.allowed) throw markRateLimited(res, resetAfter, 'user');
  }

  private limitOf(limit: number, windowSeconds: number): CountedLimit {
    const name = `app:${limit}:${windowSeconds}`;
    let counted = this.limits.get(name);
    if (!counted) {
      counted = this.counters.limit(name, limit, windowSeconds);
      this.limits.set(name, counted);
    }
    return counted;
  }
}
