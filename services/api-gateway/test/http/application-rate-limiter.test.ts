import type { Response } from 'express';
import { ApplicationRateLimiter } from '../../src/http/application-rate-limiter';
import { RateLimitedError } from '../../src/http/rate-limiter';

/** A response that records its headers. */
function response(): Response & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return {
    headers,
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
  } as never;
}

describe('ApplicationRateLimiter', () => {
  const limit = { limit: 3, windowSeconds: 7200 };

  it('allows `limit` requests per application and route in a window, then 429 until it ends', () => {
    let now = 1_000_000;
    const limiter = new ApplicationRateLimiter(() => now);
    for (let i = 0; i < 3; i++) limiter.hit(response(), 'POST /lobbies', 'app-1', limit);
    const res = response();
    expect(() => limiter.hit(res, 'POST /lobbies', 'app-1', limit)).toThrow(RateLimitedError);
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'retry-after': '7200',
    });
    // Another application and another route have buckets of their own.
    limiter.hit(response(), 'POST /lobbies', 'app-2', limit);
    limiter.hit(response(), 'PUT /lobbies', 'app-1', limit);
    now += 7200 * 1000;
    const fresh = response();
    limiter.hit(fresh, 'POST /lobbies', 'app-1', limit);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('counts nothing when the limit is 0', () => {
    const limiter = new ApplicationRateLimiter();
    const res = response();
    for (let i = 0; i < 10; i++) limiter.hit(res, 'POST /lobbies', 'app-1', { limit: 0, windowSeconds: 1 });
    expect(res.headers).toEqual({});
  });
});
