import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { clientOf } from './client-of';
import { markRateLimited } from './rate-limiter';
import { toDiscordError } from './render-error';

/** Discord's invalid-request limit (D: topics/rate-limits, "Invalid Request Limit"). */
export interface InvalidRequestLimits {
  /** Answers of 401, 403 or 429 per client address in a window (Discord: 10,000); 0 = off. */
  limit: number;
  /** Length of a window (Discord: 10 minutes). */
  windowSeconds: number;
}

/** The statuses Discord counts: a bad token, a refused permission, a rate limit. */
const INVALID_STATUSES = new Set([401, 403, 429]);

/** How often windows that ended are dropped. */
const SWEEP_INTERVAL_MS = 60_000;

interface Window {
  started: number;
  count: number;
}

/**
 * Blocks a client address that piles up invalid answers, as Discord does: once an address
 * has had `limit` answers of 401, 403 or 429 in one fixed window (429s of
 * `X-RateLimit-Scope: shared` excepted), each further request from it, whatever its
 * token, gets a global 429 until that window ends. So a client rotating random tokens,
 * each a ResolveToken call, is stopped by its address for a long while.
 *
 * Two middlewares: `refuseBlocked` before every route, and `countInvalid` just before
 * the error renderer, which writes every error answer of the gateway: counting there sees
 * the status even when the client hung up before the answer was sent. The answers of a
 * block are counted too, in the window that is already full, so they do not make it
 * longer. Counters are per gateway process and swept once a minute.
 */
export class InvalidRequestLimiter {
  private readonly windows = new Map<string, Window>();
  // The client of each request, read once when it arrived: `req.ip` parses X-Forwarded-For
  // on every read, and a socket closed before its address was read has none.
  private readonly clients = new WeakMap<Request, string>();
  private readonly windowMs: number;
  private sweptAt = 0;

  constructor(
    private readonly limits: InvalidRequestLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = limits.windowSeconds * 1000;
  }

  /** How many addresses have a window now: those with invalid answers lately. */
  get trackedAddresses(): number {
    return this.windows.size;
  }

  /** Before the routes: a blocked client gets a global 429 until its window ends. */
  readonly refuseBlocked: RequestHandler = (req, res, next) => {
    const now = this.now();
    this.sweep(now);
    const client = clientOf(req.ip);
    if (client === undefined) return next();
    this.clients.set(req, client);
    const window = this.windows.get(client);
    if (!window || window.count < this.limits.limit || now - window.started >= this.windowMs) {
      return next();
    }
    // Rounded up to the millisecond, so that a client waiting `retry_after` is not early.
    const retryAfter = Math.ceil(window.started + this.windowMs - now) / 1000;
    next(markRateLimited(res, retryAfter, 'global'));
  };

  /** Error middleware before the renderer: counts the answer the renderer is about to write. */
  readonly countInvalid: ErrorRequestHandler = (error, req, res, next) => {
    const client = this.clients.get(req);
    const status = toDiscordError(error)?.httpStatus;
    if (
      client !== undefined &&
      status !== undefined &&
      INVALID_STATUSES.has(status) &&
      res.getHeader('X-RateLimit-Scope') !== 'shared'
    ) {
      this.count(client, this.now());
    }
    next(error);
  };

  private count(client: string, now: number): void {
    let window = this.windows.get(client);
    if (!window || now - window.started >= this.windowMs) {
      window = { started: now, count: 0 };
      this.windows.set(client, window);
    }
    window.count += 1;
  }

  // Drops windows that ended, at most once a minute, so memory follows live clients.
  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.sweptAt = now;
    for (const [client, window] of this.windows) {
      if (now - window.started >= this.windowMs) this.windows.delete(client);
    }
  }
}
