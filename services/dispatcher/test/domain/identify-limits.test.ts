import {
  concurrencyHoldMs,
  decideIdentify,
  identifyRefusal,
  rateLimitKey,
  sessionStartLimit,
  type IdentifyLimits,
} from '../../src/domain/identify-limits';

const DAY_MS = 24 * 60 * 60 * 1000;
const DISCORD: IdentifyLimits = {
  total: 1000,
  windowMs: DAY_MS,
  maxConcurrency: 1,
  concurrencyWindowMs: 5000,
};
const unused = { count: 0, sinceOldestMs: null, sinceLastOfKeyMs: null };

describe('rateLimitKey', () => {
  it('is shard_id % max_concurrency, shard 0 without a shard (D:events/gateway.mdx §Max Concurrency)', () => {
    expect(rateLimitKey(null, 1)).toBe(0);
    expect(rateLimitKey([5, 8], 1)).toBe(0);
    expect(rateLimitKey([17, 32], 16)).toBe(1);
    expect(rateLimitKey([15, 32], 16)).toBe(15);
  });
});

describe('decideIdentify', () => {
  it('grants the first Identify, and one per bucket per window', () => {
    expect(decideIdentify(DISCORD, unused)).toEqual({ granted: true });
    const hold = concurrencyHoldMs(DISCORD);
    expect(hold).toBe(4500);
    expect(decideIdentify(DISCORD, { count: 1, sinceOldestMs: 1000, sinceLastOfKeyMs: 1000 })).toEqual({
      granted: false,
      limit: 'concurrency',
      retryAfterMs: hold - 1000,
    });
    expect(decideIdentify(DISCORD, { count: 1, sinceOldestMs: hold, sinceLastOfKeyMs: hold })).toEqual({
      granted: true,
    });
  });

  it('refuses every Identify once the total is used, until the oldest leaves the window', () => {
    const used = { count: 1000, sinceOldestMs: DAY_MS - 60_000, sinceLastOfKeyMs: 60_000 };
    expect(decideIdentify(DISCORD, used)).toEqual({ granted: false, limit: 'total', retryAfterMs: 60_000 });
    expect(decideIdentify(DISCORD, { ...used, count: 999 })).toEqual({ granted: true });
  });

  it('keeps a tolerance of a tenth of the window, at most 500 ms', () => {
    expect(concurrencyHoldMs({ ...DISCORD, concurrencyWindowMs: 1000 })).toBe(900);
    expect(concurrencyHoldMs({ ...DISCORD, concurrencyWindowMs: 60_000 })).toBe(59_500);
  });
});

describe('sessionStartLimit', () => {
  it('advertises what decideIdentify enforces: remaining 0 exactly when it refuses', () => {
    for (const count of [0, 1, 999, 1000, 1001]) {
      const usage = { count, sinceOldestMs: count ? 3_600_000 : null, sinceLastOfKeyMs: null };
      const advertised = sessionStartLimit(DISCORD, usage);
      expect(advertised.remaining === 0).toBe(!decideIdentify(DISCORD, usage).granted);
      expect(advertised).toMatchObject({ total: 1000, max_concurrency: 1 });
      expect(advertised.reset_after).toBe(count ? DAY_MS - 3_600_000 : 0);
    }
  });
});

describe('identifyRefusal', () => {
  it('closes 4008 with a reason that names the limit and the wait, within 123 bytes', () => {
    const concurrency = identifyRefusal(DISCORD, {
      granted: false,
      limit: 'concurrency',
      retryAfterMs: 3200,
    });
    expect(concurrency).toEqual({
      code: 4008,
      reason: 'Rate limited: max_concurrency 1 Identify per 5 s; retry in 4 s.',
    });
    const total = identifyRefusal(DISCORD, { granted: false, limit: 'total', retryAfterMs: DAY_MS });
    expect(total).toEqual({
      code: 4008,
      reason: 'Rate limited: all 1000 session starts used; retry in 86400 s.',
    });
    for (const { reason } of [concurrency, total]) expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  });
});
