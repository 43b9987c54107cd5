import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { ApplicationRateLimiter } from '../../src/http/application-rate-limiter';
import { RateLimitedError } from '../../src/http/rate-limiter';
import { createLimitCounters, type LimitCounters } from '../../src/store/limit-counters';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A response that records its headers. */
function response(): Response & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return {
    headers,
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
  } as never;
}

describe('ApplicationRateLimiter', () => {
  const opened: LimitCounters[] = [];
  afterAll(() => Promise.all(opened.map((counters) => counters.close())));

  it('allows `limit` requests per application and route in a window, then 429 until it ends', async () => {
    const limiter = new ApplicationRateLimiter(createLimitCounters({ keyPrefix: 'apps:', replicas: 1 }));
    const limit = { limit: 3, windowSeconds: 1 };
    for (let i = 0; i < 3; i++) await limiter.hit(response(), 'POST /lobbies', 'app-1', limit);
    const res = response();
    await expect(limiter.hit(res, 'POST /lobbies', 'app-1', limit)).rejects.toThrow(RateLimitedError);
    expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(1);
    // Another application and another route have buckets of their own.
    await limiter.hit(response(), 'POST /lobbies', 'app-2', limit);
    await limiter.hit(response(), 'PUT /lobbies', 'app-1', limit);
    await new Promise((resolve) =>
      setTimeout(resolve, Number(res.headers['x-ratelimit-reset-after']) * 1000 + 50),
    );
    const fresh = response();
    await limiter.hit(fresh, 'POST /lobbies', 'app-1', limit);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('counts one window for every replica when the counters are in Redis', async () => {
    const keyPrefix = `test:${randomUUID()}:`;
    const open = () => {
      const counters = createLimitCounters({ url: REDIS_URL, keyPrefix, replicas: 2 });
      opened.push(counters);
      return counters;
    };
    const first = open();
    const second = open();
    await Promise.all([first.ready(2000), second.ready(2000)]);
    const one = new ApplicationRateLimiter(first);
    const other = new ApplicationRateLimiter(second);
    const limit = { limit: 4, windowSeconds: 60 };
    for (let i = 0; i < 4; i++) await (i % 2 ? other : one).hit(response(), 'POST /lobbies', 'app-1', limit);
    await expect(one.hit(response(), 'POST /lobbies', 'app-1', limit)).rejects.toThrow(RateLimitedError);
    await expect(other.hit(response(), 'POST /lobbies', 'app-1', limit)).rejects.toThrow(RateLimitedError);
  });

  it('counts nothing when the limit is 0', async () => {
    const limiter = new ApplicationRateLimiter();
    const res = response();
    for (let i = 0; i < 10; i++)
      await limiter.hit(res, 'POST /lobbies', 'app-1', { limit: 0, windowSeconds: 1 });
    expect(res.headers).toEqual({});
  });
});
