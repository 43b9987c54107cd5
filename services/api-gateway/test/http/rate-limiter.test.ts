import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@acs/service-kit';
import { createAuthenticator, type Authenticator } from '../../src/auth/create-authenticator';
import { createOAuthClient } from '../../src/clients/oauth-client';
import { RateLimiter } from '../../src/http/rate-limiter';
import { createErrorRenderer } from '../../src/http/render-error';
import { sendJson } from '../../src/http/send-json';
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth-server';

/**
 * Who the rate limits count: the limiter as createApp mounts it, in an Express app on a
 * real port, with the real authenticator against a gRPC stand-in for oauth. The limiter's
 * clock stands still, so that no window ends during a test; each test has its own address
 * (X-Forwarded-For, trusted from loopback).
 */
let oauth: FakeOAuth;
let auth: Authenticator;
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

beforeAll(async () => {
  oauth = await startFakeOAuth();
  oauth.tokens.set('valid.bot.token', BOT);
  oauth.tokens.set('other.bot.token', { ...BOT, application_id: '1300000000000000002' });
  oauth.tokens.set('known.bot.token', { ...BOT, application_id: '1300000000000000003' });
  auth = createAuthenticator(createOAuthClient(oauth.client), {
    maxCacheSeconds: 30,
    unknownTokenSeconds: 10,
  });
  const limiter = new RateLimiter(
    { globalPerSecond: LIMIT, routeLimit: 1000, routeWindowSeconds: 1 },
    auth.identify,
    () => 0,
  );
  const app = express();
  app.set('trust proxy', 'loopback');
  app.get('/token-route', limiter.forRoute('GET /token-route', 'token'), async (req, res) => {
    await auth.authenticate(req);
    sendJson(res, 200, {});
  });
  app.get('/open-route', limiter.forRoute('GET /open-route'), (_req, res) => sendJson(res, 200, {}));
  app.use(createErrorRenderer(createLogger('test', 'silent')));
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await oauth.close();
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

describe('the rate limiter', () => {
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
});
