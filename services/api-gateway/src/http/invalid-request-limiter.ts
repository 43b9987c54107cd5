import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { createLimitCounters, type CountedLimit, type LimitCounters } from '../store/limit-counters';
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
 * longer. The counters are the `counters` given: in Redis, shared by every replica, or in
 * this process's memory (windows go when they end).
 */
export class InvalidRequestLimiter {
  private readonly answers: CountedLimit;
  // The client of each request, read once when it arrived: `req.ip` parses X-Forwarded-For
  // on every read, and a socket closed before its address was read has none.
  private readonly clients = new WeakMap<Request, string>();

  constructor(
    limits: InvalidRequestLimits,
    counters: LimitCounters = createLimitCounters({ keyPrefix: '', replicas: 1 }),
  ) {
    this.answers = counters.limit('invalid', limits.limit, limits.windowSeconds);
  }

  /** Before the routes: a blocked client gets a global 429 until its window ends. */
  readonly refuseBlocked: RequestHandler = (req, res, next) => {
    const client = clientOf(req.ip);
    if (client === undefined) return next();
    this.clients.set(req, client);
    this.answers.peek(client).then((window) => {
      if (!window || window.allowed) return next();
      // Rounded up to the millisecond, so that a client waiting `retry_after` is not early.
      next(markRateLimited(res, Math.ceil(window.resetAfterMs) / 1000, 'global'));
    }, next);
  };

  /** Error middleware before the renderer: counts the answer the renderer is about to write. */
  readonly countInvalid: ErrorRequestHandler = (error, req, res, next) => {
    const client = this.clients.get(req);
    const status = toDiscordError(error)?.httpStatus;
    if (
      client === undefined ||
      status === undefined ||
      !INVALID_STATUSES.has(status) ||
      res.getHeader('X-RateLimit-Scope') === 'shared'
    ) {
      return next(error);
    }
    // Counted before the answer is written, so that the client's next request sees it.
    this.answers.hit(client).then(
      () => next(error),
      () => next(error),
    );
  };
}
