import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createLogger } from '@acs/service-kit';
import { MissingAccessError, UnauthorizedError } from '@acs/discord-errors';
import { clientOf } from '../../src/http/client-of';
import { InvalidRequestLimiter } from '../../src/http/invalid-request-limiter';
import { markRateLimited } from '../../src/http/rate-limiter';
import { createErrorRenderer } from '../../src/http/render-error';
import { notFound } from '../../src/http/route-table';
import { sendJson } from '../../src/http/send-json';

/**
 * The limiter in an Express app on a real port, mounted as createApp mounts it (before the
 * routes, and before the one error renderer), behind `trust proxy: loopback` so that each
 * test names its client in X-Forwarded-For; the clock is the test's.
 */
let server: Server;
let url: string;
let limiter: InvalidRequestLimiter;
let clock = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  const app = express();
  app.set('trust proxy', 'loopback');
  limiter = new InvalidRequestLimiter({ limit: 3, windowSeconds: 10 }, () => clock);
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

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Each test starts in a fresh window for every address.
beforeEach(() => {
  clock += 60_000;
});

const get = (client: string, path: string) =>
  fetch(`${url}${path}`, { headers: { 'X-Forwarded-For': client } });

async function statuses(client: string, paths: string[]): Promise<number[]> {
  const answers = [];
  for (const path of paths) answers.push((await get(client, path)).status);
  return answers;
}

describe('InvalidRequestLimiter', () => {
  it('blocks an address with `limit` invalid answers until its window ends, whatever it asks', async () => {
    expect(await statuses('198.51.100.1', ['/unauthorized', '/forbidden', '/rate-limited'])).toEqual([
      401, 403, 429,
    ]);
    clock += 4_000;
    const blocked = await get('198.51.100.1', '/ok');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toBe('application/json');
    expect(blocked.headers.get('retry-after')).toBe('6');
    expect(blocked.headers.get('x-ratelimit-global')).toBe('true');
    expect(blocked.headers.get('x-ratelimit-scope')).toBe('global');
    expect(blocked.headers.get('via')).toBeTruthy();
    expect(await blocked.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 6,
      global: true,
    });
    // Another address is served meanwhile.
    expect((await get('198.51.100.2', '/ok')).status).toBe(200);

    clock += 5_999;
    expect((await get('198.51.100.1', '/ok')).status).toBe(429);
    clock += 1;
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

  it('forgets addresses whose window ended', async () => {
    await statuses('198.51.100.5', ['/unauthorized']);
    expect(limiter.trackedAddresses).toBeGreaterThan(0);
    clock += 60_000;
    await get('198.51.100.6', '/ok');
    expect(limiter.trackedAddresses).toBe(0);
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
