import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { FixedWindows } from '../domain/fixed-windows';
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
 */
export class ApplicationRateLimiter {
  private readonly windows = new FixedWindows();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request of `applicationId` on `routeId`; throws the 429 past the limit. */
  hit(
    res: Response,
    routeId: string,
    applicationId: string,
    { limit, windowSeconds }: ApplicationLimit,
  ): void {
    if (limit <= 0) return;
    const now = this.now();
    this.windows.sweep(now, windowSeconds * 1000);
    const window = this.windows.hit(`a:${applicationId}:${routeId}`, now, windowSeconds * 1000);
    const resetAfter = Math.max(0, window.started + windowSeconds * 1000 - now) / 1000;
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - window.count)));
    res.setHeader('X-RateLimit-Reset', (now / 1000 + resetAfter).toFixed(3));
    res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
    res.setHeader(
      'X-RateLimit-Bucket',
      createHash('sha256').update(`app ${routeId}`).digest('hex').slice(0, 32),
    );
    if (window.count > limit) throw markRateLimited(res, resetAfter, 'user');
  }
}
