import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@acs/service-kit';
import { createAuthenticator, type Authenticator } from '../../src/auth/create-authenticator';
import { createOAuthClient } from '../../src/clients/oauth-client';
import { RateLimiter } from '../../src/http/rate-limiter';
import { createLimitCounters, type LimitCounters } from '../../src/store/limit-counters';
import { createErrorRenderer } from '../../src/http/render-error';
import { sendJson } from '../../src/http/send-json';
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth-server';

/**
 * Who the rate limits count: the limiter as createApp mounts it, in an Express app on a
 * real port, with the real authenticator against a gRPC stand-in for oauth, counting in
 * memory and in the machine's Redis (under a key prefix of this run's own). The route
 * windows last a minute, so that none ends during a test; each test has its own address
 * (X-Forwarded-For, trusted from loopback).
 */
const STORES = ['memory', 'redis'] as const;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let oauth: FakeOAuth;
let auth: Authenticator;
let counters: LimitCounters;
let server: Server;
let url: string;

const LIMIT = 5;
const BOT = {
  kind: 'PRINCIPAL_KIND_BOT' as const,
  application_id: '1300000000000000001',
  user_id: '1300000000000000001',
  scopes: [],
  application_flags: 0,
  user_locale: '',
  cache_seconds: 60,
};

describe.each(STORES)('the rate limiter counting in %s', (store) => {
  beforeAll(async () => {
    oauth = await startFakeOAuth();
    oauth.tokens.set('valid.bot.token', BOT);
    oauth.tokens.set('other.bot.token', { ...BOT, application_id: '1300000000000000002' });
    oauth.tokens.set('known.bot.token', { ...BOT, application_id: '1300000000000000003' });
    auth = createAuthenticator(createOAuthClient(oauth.client), {
      maxCacheSeconds: 30,
      unknownTokenSeconds: 10,
    });
    counters = createLimitCounters({
      url: store === 'redis' ? REDIS_URL : undefined,
      keyPrefix: `test:rate-limiter:${randomBytes(6).toString('hex')}:`,
      replicas: 1,
    });
    await counters.ready(5_000);
    const limiter = new RateLimiter(
      { globalPerSecond: 0, routeLimit: LIMIT, routeWindowSeconds: 60 },
      auth.identify,
      counters,
    );
    const global = new RateLimiter(
      { globalPerSecond: LIMIT, routeLimit: 1000, routeWindowSeconds: 60 },
      auth.identify,
      counters,
    );
    const shared = new RateLimiter(
      {
        globalPerSecond: 0,
        routeLimit: 1000,
        routeWindowSeconds: 60,
        buckets: { reactions: { limit: 2, windowSeconds: 60 }, webhook: { limit: 3, windowSeconds: 60 } },
        workPerSecond: 0,
      },
      auth.identify,
      counters,
    );
    // A work budget of 30 units, in a window long enough that no test sees it roll.
    const costly = new RateLimiter(
      {
        globalPerSecond: 0,
        routeLimit: 1000,
        routeWindowSeconds: 60,
        workPerSecond: 30,
        workWindowSeconds: 60,
        costs: { invoke: 10 },
      },
      auth.identify,
      counters,
    );
    const app = express();
    app.set('trust proxy', 'loopback');
    for (const route of ['/react/:channel_id/:emoji', '/unreact/:channel_id/:emoji']) {
      app.get(route, shared.forRoute(`GET ${route}`, 'token', { bucket: 'reactions' }), (_req, res) =>
        sendJson(res, 200, {}),
      );
    }
    app.get(
      '/hook/:webhook_id/:webhook_token',
      shared.forRoute('GET /hook/:webhook_id/:webhook_token', undefined, {
        bucket: 'webhook',
        partitionBy: 'webhook_token',
      }),
      (_req, res) => sendJson(res, 200, {}),
    );
    app.get(
      '/callback/:interaction_id/:interaction_token',
      shared.forRoute('GET /callback/:interaction_id/:interaction_token', undefined, {
        bucket: 'webhook',
        partitionBy: 'interaction_token',
      }),
      (_req, res) => sendJson(res, 200, {}),
    );
    app.get('/invoke', costly.forRoute('GET /invoke', 'token', { cost: 'invoke' }), (_req, res) =>
      sendJson(res, 200, {}),
    );
    app.get('/read', costly.forRoute('GET /read', 'token'), (_req, res) => sendJson(res, 200, {}));
    app.get('/alone/:channel_id', shared.forRoute('GET /alone/:channel_id', 'token'), (_req, res) =>
      sendJson(res, 200, {}),
    );
    app.get('/token-route', limiter.forRoute('GET /token-route', 'token'), async (req, res) => {
      await auth.authenticate(req);
      sendJson(res, 200, {});
    });
    app.get('/open-route', limiter.forRoute('GET /open-route'), (_req, res) => sendJson(res, 200, {}));
    app.get('/global/:guild_id', global.forRoute('GET /global/:guild_id', 'token'), (_req, res) =>
      sendJson(res, 200, {}),
    );
    app.use(createErrorRenderer(createLogger('test', 'silent')));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await oauth.close();
    await counters.close();
  });

  beforeEach(() => {
    oauth.calls.length = 0;
  });

  const randomToken = () => `Bot ${randomBytes(24).toString('base64url')}`;

  async function statuses(client: string, path: string, authorizations: Array<string | undefined>) {
    const answers: number[] = [];
    for (const authorization of authorizations) {
      const headers: Record<string, string> = { 'X-Forwarded-For': client };
      if (authorization !== undefined) headers.authorization = authorization;
      answers.push((await fetch(`${url}${path}`, { headers })).status);
    }
    return answers;
  }

  it('counts a client rotating made-up tokens as one caller, its address, and stops asking oauth', async () => {
    const tokens = Array.from({ length: 70 }, randomToken);
    const answers = await statuses('198.51.100.1', '/token-route', tokens);
    expect(answers.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(answers.slice(LIMIT)).toEqual(Array(70 - LIMIT).fill(429));
    // Only the tokens that came while the address had requests left were looked up.
    expect(oauth.calls).toHaveLength(LIMIT);
  });

  it('counts a valid token by its credential, apart from its address and other tokens', async () => {
    const client = '198.51.100.2';
    expect(await statuses(client, '/token-route', Array(LIMIT + 1).fill('Bot valid.bot.token'))).toEqual([
      ...Array(LIMIT).fill(200),
      429,
    ]);
    // The address and another bot at it still have their own requests.
    expect(await statuses(client, '/token-route', ['Bot other.bot.token', undefined])).toEqual([200, 401]);
  });

  it('serves a known token from an address that spent its requests on made-up ones', async () => {
    const client = '198.51.100.3';
    // Known: resolved (and cached) before the flood.
    expect(await statuses(client, '/token-route', ['Bot known.bot.token'])).toEqual([200]);
    const flood = await statuses(client, '/token-route', Array.from({ length: 10 }, randomToken));
    expect(flood.filter((status) => status === 429)).toHaveLength(10 - LIMIT);
    expect(await statuses(client, '/token-route', ['bot  known.bot.token'])).toEqual([200]);
  });

  it('counts requests without a header, and any header on a route that takes none, by address', async () => {
    const client = '198.51.100.4';
    expect(await statuses(client, '/token-route', Array(LIMIT + 1).fill(undefined))).toEqual([
      ...Array(LIMIT).fill(401),
      429,
    ]);
    const open = await statuses(
      '198.51.100.5',
      '/open-route',
      Array.from({ length: LIMIT + 2 }, randomToken),
    );
    expect(open).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    expect(oauth.calls).toHaveLength(0);
  });

  it('counts a caller by address while oauth cannot answer, and the route answers 503', async () => {
    oauth.failing = true;
    try {
      const answers = await statuses(
        '198.51.100.6',
        '/token-route',
        Array(LIMIT + 1).fill('Bot valid.bot.token2'),
      );
      expect(answers).toEqual([...Array(LIMIT).fill(503), 429]);
    } finally {
      oauth.failing = false;
    }
  });

  it('sends the same route headers from either store, and counts the global window across routes', async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.7', authorization: 'Bot valid.bot.token' };
    const first = await fetch(`${url}/global/1`, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(first.headers.get('x-ratelimit-bucket')).toBe(
      createHash('sha256').update('GET /global/:guild_id').digest('hex').slice(0, 32),
    );
    const resetAfter = Number(first.headers.get('x-ratelimit-reset-after'));
    expect(resetAfter).toBeGreaterThan(55);
    expect(resetAfter).toBeLessThanOrEqual(60);
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeCloseTo(Date.now() / 1000 + resetAfter, -1);
    // A burst over guilds: each route bucket has room, the global second does not.
    const burst = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) => fetch(`${url}/global/${i + 2}`, { headers })),
    );
    const refused = burst.filter((answer) => answer.status === 429);
    // At least the third second's share, should the burst straddle a window's end.
    expect(refused.length).toBeGreaterThanOrEqual(LIMIT);
    expect(refused[0]!.headers.get('x-ratelimit-global')).toBe('true');
    expect(refused[0]!.headers.get('x-ratelimit-scope')).toBe('global');
    expect(await refused[0]!.json()).toMatchObject({ global: true });
  });

  it('counts routes of one bucket together per channel, at the bucket’s own limit, apart from other routes', async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.8', authorization: 'Bot known.bot.token' };
    const get = (path: string) => fetch(`${url}${path}`, { headers });
    const first = await get('/react/1/a');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    const bucket = first.headers.get('x-ratelimit-bucket');
    // Another emoji and another route of the bucket, in the same channel: the second and the refusal.
    const second = await get('/unreact/1/b');
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-bucket')).toBe(bucket);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    const third = await get('/react/1/c');
    expect(third.status).toBe(429);
    // Another channel has its own window; a route outside the bucket its own limit.
    expect((await get('/react/2/a')).status).toBe(200);
    const alone = await get('/alone/1');
    expect(alone.status).toBe(200);
    expect(alone.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(alone.headers.get('x-ratelimit-bucket')).not.toBe(bucket);
  });

  it('counts a bucket partitioned by a token per token, whatever the address and the route naming it', async () => {
    const token = randomBytes(12).toString('hex');
    const get = (path: string, client: string) =>
      fetch(`${url}${path}`, { headers: { 'X-Forwarded-For': client } });
    // The callback and the webhook routes of one token, from three addresses: one bucket of 3.
    expect((await get(`/callback/1/${token}`, '198.51.100.20')).status).toBe(200);
    expect((await get(`/hook/9/${token}`, '198.51.100.21')).status).toBe(200);
    const third = await get(`/hook/8/${token}`, '198.51.100.22');
    expect(third.status).toBe(200);
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await get(`/hook/9/${token}`, '198.51.100.23');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    expect(await refused.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number),
      global: false,
    });
    // Another token has its own.
    expect((await get(`/hook/9/${randomBytes(12).toString('hex')}`, '198.51.100.23')).status).toBe(200);
  });

  it('spends a costly route’s units of its caller’s work budget, and not another caller’s', async () => {
    const get = (path: string, authorization: string) =>
      fetch(`${url}${path}`, { headers: { 'X-Forwarded-For': '198.51.100.30', authorization } });
    const first = await get('/invoke', 'Bot valid.bot.token');
    expect(first.status).toBe(200);
    // The headers count invocations: 30 units at 10 each.
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect((await get('/invoke', 'Bot valid.bot.token')).status).toBe(200);
    expect((await get('/invoke', 'Bot valid.bot.token')).status).toBe(200);
    const refused = await get('/invoke', 'Bot valid.bot.token');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A route without a cost is not held back by the budget; another caller has its own.
    expect((await get('/read', 'Bot valid.bot.token')).status).toBe(200);
    expect((await get('/invoke', 'Bot other.bot.token')).status).toBe(200);
  });
});
