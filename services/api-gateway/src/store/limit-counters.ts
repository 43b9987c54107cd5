import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** One key's fixed window after a hit (or as it stands, for a peek). */
export interface WindowCount {
  /** Whether this hit was within the limit (a peek: whether the window has room left). */
  allowed: boolean;
  /** Hits in the window, the refused ones included. */
  count: number;
  /** Hits the limit still allows in it (0 once it is reached). */
  remaining: number;
  /** Milliseconds until the window ends. */
  resetAfterMs: number;
}

/**
 * A limit of `limit` hits per key in fixed windows of `windowSeconds`, each opening with
 * the key's first hit: the arithmetic of the rate limits and the invalid-request limit.
 */
export interface CountedLimit {
  /**
   * Counts a hit of `key` weighing `cost` (1 by default; counted past the limit too) and
   * returns its window after it: allowed while the window's total stays within the limit.
   */
  hit(key: string, cost?: number): Promise<WindowCount>;
  /** The key's window without counting; undefined when it has none. */
  peek(key: string): Promise<WindowCount | undefined>;
}

/** Where the limits count: in Redis, shared by every replica, or in this process. */
export interface LimitCounters {
  readonly store: 'redis' | 'memory';
  /** A limit counted under `name` (which keeps its keys apart from other limits'). */
  limit(name: string, limit: number, windowSeconds: number): CountedLimit;
  /**
   * Resolves once Redis is connected (at once in memory), or after `timeoutMs` whatever
   * its state: until then hits count in the insurance limiters.
   */
  ready(timeoutMs: number): Promise<void>;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

/** How the counters reach Redis; without `url`, they count in memory. */
export interface LimitCountersOptions {
  /** `redis://[user:password@]host:port[/db]`; unset: counted in this process's memory. */
  url?: string;
  /** Prepended to every key, so that stacks (or tests) sharing one Redis never share counters. */
  keyPrefix: string;
  /**
   * How many replicas share the limits: while Redis cannot be reached, each counts its
   * share (the limit divided by this, rounded up) in its own memory.
   */
  replicas: number;
  /** Longest wait for one Redis command before the replica counts in memory (ms). */
  commandTimeoutMs?: number;
  /** Called when the connection to Redis fails (it is retried meanwhile). */
  onError?: (error: Error) => void;
}

/** Reads a limiter's answer, which rate-limiter-flexible also rejects with past the limit. */
function toCount(res: RateLimiterRes, allowed: boolean): WindowCount {
  return {
    allowed,
    count: res.consumedPoints,
    remaining: res.remainingPoints,
    resetAfterMs: Math.max(0, res.msBeforeNext),
  };
}

/** A CountedLimit over one rate-limiter-flexible limiter (with its insurance, for Redis). */
function countedLimit(limiter: RateLimiterAbstract): CountedLimit {
  return {
    hit: (key, cost = 1) =>
      limiter.consume(key, cost).then(
        (res) => toCount(res, true),
        (answer: unknown) => {
          if (answer instanceof RateLimiterRes) return toCount(answer, false);
          throw answer;
        },
      ),
    async peek(key) {
      const res = await limiter.get(key);
      // A memory window that ended is kept until its timer drops it.
      return res === null || res.msBeforeNext <= 0 ? undefined : toCount(res, res.remainingPoints > 0);
    },
  };
}

/**
 * A CountedLimit in Redis. Hits go through the limiter (its script, or its insurance).
 * A peek, which every request makes for the invalid-request limit, reads the limiter's
 * key with GET and PTTL (pipelined, a third of the CPU of the limiter's MULTI/EXEC read;
 * a peek needs no atomicity), and asks the insurance when Redis cannot answer.
 */
function countedRedisLimit(
  redis: Redis,
  limiter: RateLimiterRedis,
  insurance: RateLimiterMemory,
  points: number,
): CountedLimit {
  const { hit } = countedLimit(limiter);
  const fallback = countedLimit(insurance);
  return {
    hit,
    async peek(key) {
      if (redis.status !== 'ready') return fallback.peek(key);
      const rlKey = limiter.getKey(key);
      let value: string | null;
      let ttl: number;
      try {
        [value, ttl] = await Promise.all([redis.get(rlKey), redis.pttl(rlKey)]);
      } catch {
        return fallback.peek(key);
      }
      if (value === null || ttl <= 0) return undefined;
      const count = Number(value);
      return { allowed: count < points, count, remaining: Math.max(0, points - count), resetAfterMs: ttl };
    },
  };
}

/**
 * Counters for the limits, through rate-limiter-flexible: with a Redis URL, in Redis
 * (one atomic script per hit, a key per window that expires with it), shared by every
 * replica; each limiter's insurance is an in-memory limiter holding this replica's share
 * of the limit, which answers whenever Redis does not (not connected, a command failing
 * or slower than `commandTimeoutMs`), so an outage loosens the limits to about what they
 * were, never into an error. The client queues nothing while disconnected and reconnects
 * every half second at most, so counting returns to Redis soon after it does. Without a
 * URL, in-memory limiters: the embedded default of a single replica.
 */
export function createLimitCounters(options: LimitCountersOptions): LimitCounters {
  if (!options.url) {
    return {
      store: 'memory',
      limit: (name, points, duration) =>
        countedLimit(new RateLimiterMemory({ keyPrefix: name, points, duration })),
      ready: async () => undefined,
      close: async () => undefined,
    };
  }
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: options.commandTimeoutMs ?? 250,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
  });
  redis.on('error', (error: Error) => options.onError?.(error));
  return {
    store: 'redis',
    limit(name, points, duration) {
      const insurance = new RateLimiterMemory({
        keyPrefix: name,
        points: Math.max(1, Math.ceil(points / options.replicas)),
        duration,
      });
      const limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${options.keyPrefix}${name}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: insurance,
      });
      return countedRedisLimit(redis, limiter, insurance, points);
    },
    ready(timeoutMs) {
      if (redis.status === 'ready') return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        redis.once('ready', done);
        function done() {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve();
        }
      });
    },
    async close() {
      // Not connected: stop reconnecting (quit would wait for a connection).
      if (redis.status !== 'ready') return redis.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
