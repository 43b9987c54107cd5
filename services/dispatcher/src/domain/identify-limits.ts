import { Close } from './gateway-codes';

/**
 * The Identify limits a dispatcher enforces and `GET /gateway/bot` advertises
 * (D:events/gateway.mdx §Session Start Limit Object): `total` session starts per
 * `windowMs` (Discord: 1000 a day), and `maxConcurrency` Identifies per
 * `concurrencyWindowMs` (Discord: per 5 seconds).
 */
export interface IdentifyLimits {
  total: number;
  windowMs: number;
  maxConcurrency: number;
  concurrencyWindowMs: number;
}

/** An application's Identifies as the database sees them, timed by the database's clock. */
export interface IdentifyUsage {
  /** Identifies within `windowMs`. */
  count: number;
  /** How long ago the oldest of them happened; null when there is none. */
  sinceOldestMs: number | null;
  /** How long ago the last Identify with the same rate-limit key happened; null when there is none. */
  sinceLastOfKeyMs: number | null;
}

/** Whether an Identify may start a session, and if not which limit refused it. */
export type IdentifyDecision =
  { granted: true } | { granted: false; limit: 'concurrency' | 'total'; retryAfterMs: number };

/** `session_start_limit` of `GET /gateway/bot` (D:events/gateway.mdx). */
export interface SessionStartLimit {
  total: number;
  remaining: number;
  reset_after: number;
  max_concurrency: number;
}

/**
 * The bucket of an Identify (D:events/gateway.mdx §Max Concurrency): `rate_limit_key =
 * shard_id % max_concurrency`; an Identify without a shard is shard 0.
 */
export function rateLimitKey(shard: readonly [number, number] | null, maxConcurrency: number): number {
  return (shard?.[0] ?? 0) % maxConcurrency;
}

/**
 * How long an Identify keeps its bucket closed: the window, less a tolerance of a tenth
 * (at most 500 ms). A client that waits the window after sending (discord.js's and
 * discord.py's identify queues do) is timed here from when the database recorded its
 * previous Identify, a little later, after a token lookup that may have been slower than
 * this one's; it must not be refused for that.
 */
export function concurrencyHoldMs(limits: IdentifyLimits): number {
  return limits.concurrencyWindowMs - Math.min(limits.concurrencyWindowMs / 10, 500);
}

/**
 * Decides an Identify: refused while `total` session starts are used within the window
 * (until the oldest leaves it), or while its bucket holds an Identify younger than
 * `concurrencyHoldMs`; else granted.
 */
export function decideIdentify(limits: IdentifyLimits, usage: IdentifyUsage): IdentifyDecision {
  if (usage.count >= limits.total) {
    const retryAfterMs = Math.max(0, limits.windowMs - (usage.sinceOldestMs ?? limits.windowMs));
    return { granted: false, limit: 'total', retryAfterMs };
  }
  const hold = concurrencyHoldMs(limits);
  if (usage.sinceLastOfKeyMs !== null && usage.sinceLastOfKeyMs < hold) {
    return { granted: false, limit: 'concurrency', retryAfterMs: hold - usage.sinceLastOfKeyMs };
  }
  return { granted: true };
}

/**
 * `session_start_limit` from the same usage `decideIdentify` reads, so what is
 * advertised is what is enforced: `remaining` reaches 0 exactly when Identifies start
 * being refused, and `reset_after` is when the oldest start leaves the window (0 when
 * none was used).
 */
export function sessionStartLimit(limits: IdentifyLimits, usage: IdentifyUsage): SessionStartLimit {
  return {
    total: limits.total,
    remaining: Math.max(0, limits.total - usage.count),
    reset_after:
      usage.sinceOldestMs === null ? 0 : Math.max(0, Math.round(limits.windowMs - usage.sinceOldestMs)),
    max_concurrency: limits.maxConcurrency,
  };
}

/**
 * The close for a refused Identify: 4008 Rate limited (D:topics/opcodes-and-status-codes.mdx
 * §Gateway Close Event Codes, reconnect: true), with a reason naming the limit and when
 * to try again (a close reason is at most 123 bytes).
 */
export function identifyRefusal(
  limits: IdentifyLimits,
  decision: Extract<IdentifyDecision, { granted: false }>,
): { code: number; reason: string } {
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  const reason =
    decision.limit === 'total'
      ? `Rate limited: all ${limits.total} session starts used; retry in ${seconds} s.`
      : `Rate limited: max_concurrency ${limits.maxConcurrency} Identify per ${limits.concurrencyWindowMs / 1000} s; retry in ${seconds} s.`;
  return { code: Close.RATE_LIMITED.code, reason };
}
