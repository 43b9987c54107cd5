import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createLogger } from '@acs/service-kit';
import { MissingAccessError, UnauthorizedError } from '@acs/discord-errors';
import { clientOf } from '../../src/http/client-of';
import { InvalidRequestLimiter } from '../../src/http/invalid-request-limiter';
import { markRateLimited } from '../../src/http/rate-limiter';
import { createErrorRenderer } from '../../src/http/render-error';
import { createLimitCounters, type LimitCounters } from '../../src/store/limit-counters';
import { notFound } from '../../src/http/route-table';
import { sendJson } from '../../src/http/send-json';

/**
 * The limiter in an Express app on a real port, mounted as createApp mounts it (before the
 * routes, and before the one error renderer), behind `trust proxy: loopback` so that each
 * test names its client in X-Forwarded-For; counting in memory, then in the machine's
 * Redis under a key prefix of its own. Windows last WINDOW_SECONDS.
 */
const STORES = ['memory', 'redis'] as const;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WINDOW_SECONDS = 2;

let server: Server;
let url: string;
let counters: LimitCounters;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(STORES)('InvalidRequestLimiter counting in %s', (store) => {
  beforeAll(async () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    counters = createLimitCounters({
      url: store === 'redis' ? REDIS_URL : undefined,
      keyPrefix: `test:invalid-requests:${randomBytes(6).toString('hex')}:`,
      replicas: 1,
    });
    await counters.ready(5_000);
    const limiter = new InvalidRequestLimiter({ limit: 3, windowSeconds: WINDOW_SECONDS }, counters);
    app.use(limiter.refuseBlocked);
    app.get('/ok', (_req, res) => sendJson(res, 200, { ok: true }));
    app.get('/unauthorized', () => {
      throw new UnauthorizedError();
    });
    app.get('/forbidden', () => {
      throw new MissingAccessError();
    });
    app.get('/rate-limited', (_req, res) => {
      throw markRateLimited(res, 1, 'user');
    });
    app.get('/shared-rate-limited', (_req, res) => {
      const error = markRateLimited(res, 1, 'user');
      res.setHeader('X-RateLimit-Scope', 'shared');
      throw error;
    });
    app.get('/slow-unauthorized', async () => {
      await sleep(150);
      throw new UnauthorizedError();
    });
    app.use(notFound);
    app.use(limiter.countInvalid);
    app.use(createErrorRenderer(createLogger('test', 'silent')));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await counters.close();
  });

  const get = (client: string, path: string) =>
    fetch(`${url}${path}`, { headers: { 'X-Forwarded-For': client } });

  async function statuses(client: string, paths: string[]): Promise<number[]> {
    const answers = [];
    for (const path of paths) answers.push((await get(client, path)).status);
    return answers;
  }

  it('blocks an address with `limit` invalid answers until its window ends, whatever it asks', async () => {
    expect(await statuses('198.51.100.1', ['/unauthorized', '/forbidden', '/rate-limited'])).toEqual([
      401, 403, 429,
    ]);
    const blocked = await get('198.51.100.1', '/ok');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toBe('application/json');
    expect(blocked.headers.get('retry-after')).toBe(String(WINDOW_SECONDS));
    expect(blocked.headers.get('x-ratelimit-global')).toBe('true');
    expect(blocked.headers.get('x-ratelimit-scope')).toBe('global');
    expect(blocked.headers.get('via')).toBeTruthy();
    const body = (await blocked.json()) as { retry_after: number };
    expect(body).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number),
      global: true,
    });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(WINDOW_SECONDS);
    // Another address is served meanwhile.
    expect((await get('198.51.100.2', '/ok')).status).toBe(200);
    expect((await get('198.51.100.1', '/ok')).status).toBe(429);
    // The block's own 429s did not lengthen it: served once `retry_after` has passed.
    await sleep(body.retry_after * 1000 + 50);
    expect((await get('198.51.100.1', '/ok')).status).toBe(200);
  });

  it('does not count successes, 404s and shared-scope 429s', async () => {
    const paths = Array.from({ length: 5 }, () => ['/ok', '/nowhere', '/shared-rate-limited']).flat();
    const answers = await statuses('198.51.100.3', paths);
    expect(new Set(answers)).toEqual(new Set([200, 404, 429]));
    expect((await get('198.51.100.3', '/ok')).status).toBe(200);
    // Two more invalid answers are still under the limit of 3.
    expect(await statuses('198.51.100.3', ['/unauthorized', '/unauthorized', '/ok'])).toEqual([
      401, 401, 200,
    ]);
  });

  it('counts the answer of a client that hung up before it was sent', async () => {
    for (let i = 0; i < 3; i++) {
      const aborted = fetch(`${url}/slow-unauthorized`, {
        headers: { 'X-Forwarded-For': '198.51.100.4' },
        signal: AbortSignal.timeout(20),
      });
      await expect(aborted).rejects.toThrow();
    }
    await sleep(300);
    expect((await get('198.51.100.4', '/ok')).status).toBe(429);
  });

  it('counts an IPv6 client by its /64', async () => {
    expect(
      await statuses('2001:db8:1:2::a', ['/unauthorized', '/unauthorized']).then(async (first) => [
        ...first,
        ...(await statuses('2001:db8:1:2:ffff:ffff:ffff:ffff', ['/unauthorized'])),
      ]),
    ).toEqual([401, 401, 401]);
    expect((await get('2001:db8:1:2:1234::1', '/ok')).status).toBe(429);
    expect((await get('2001:db8:1:3::a', '/ok')).status).toBe(200);
  });
});

describe('clientOf', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0DB8:00a0:0001:ffff::1', '2001:db8:a0:1::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['a::b:c:d:e:192.0.2.1', 'a:0:b:c::/64'],
    ['not-an-address', 'not-an-address'],
  ])('%s → %s', (ip, client) => {
    expect(clientOf(ip)).toBe(client);
  });

  it('has no client without an address', () => {
    expect(clientOf(undefined)).toBeUndefined();
  });
});
