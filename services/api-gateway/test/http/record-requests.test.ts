import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@acs/service-kit';
import { createAuthenticator } from '../../src/auth/create-authenticator';
import { createOAuthClient } from '../../src/clients/oauth-client';
import { createErrorRenderer } from '../../src/http/render-error';
import { RequestRecorder } from '../../src/http/record-requests';
import { mountRoutes, type Route } from '../../src/http/route-table';
import { RateLimiter } from '../../src/http/rate-limiter';
import { createTestControl, type TestControl } from '../../src/store/create-test-control';
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth-server';

// The recorder through a real Express app, a real authenticator and a real rate limiter,
// oauth stood in for at the network edge: whose calls are logged, what an entry holds and
// never holds, the warnings header, and a fault answering in the route's place.

const APP_A = '1500000000000000001';
const APP_B = '1500000000000000002';
const USER = '1500000000000000003';
let oauth: FakeOAuth;
let server: Server;
let base: string;
let control: TestControl;

const principal = (
  kind: 'PRINCIPAL_KIND_BOT' | 'PRINCIPAL_KIND_BEARER' | 'PRINCIPAL_KIND_USER_SESSION',
  app: string,
) => ({
  kind,
  application_id: app,
  user_id: kind === 'PRINCIPAL_KIND_BOT' ? app : USER,
  scopes: [],
  application_flags: 0,
  user_locale: '',
  cache_seconds: 60,
});

beforeAll(async () => {
  oauth = await startFakeOAuth();
  oauth.tokens.set('bot-a', principal('PRINCIPAL_KIND_BOT', APP_A));
  oauth.tokens.set('bearer-a', principal('PRINCIPAL_KIND_BEARER', APP_A));
  oauth.tokens.set('bot-b', principal('PRINCIPAL_KIND_BOT', APP_B));
  oauth.tokens.set('session', principal('PRINCIPAL_KIND_USER_SESSION', ''));
  const auth = createAuthenticator(createOAuthClient(oauth.client), {
    maxCacheSeconds: 30,
    unknownTokenSeconds: 0,
  });
  control = createTestControl({ keyPrefix: '', requestLogSize: 100 });
  const app = express();
  const answer: Route['handlers'][number] = async (req, res) => {
    await auth.authenticate(req, true);
    res.status(200).json({ ok: true });
  };
  const routes: Route[] = [
    {
      method: 'post',
      path: '/channels/:channel_id/messages',
      handlers: [express.json(), answer],
      credential: 'token',
    },
    {
      method: 'get',
      path: '/things/:thing_id/:thing_token',
      handlers: [answer],
      credential: 'token-or-session',
    },
  ];
  mountRoutes(
    app,
    '/api/v10',
    routes,
    new RateLimiter({ globalPerSecond: 0, routeLimit: 100, routeWindowSeconds: 60 }, auth.identify),
    new RequestRecorder({ auth, ...control }),
  );
  app.use(createErrorRenderer(createLogger('test', 'silent')));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await oauth.close();
});

const call = (method: string, path: string, authorization?: string, body?: unknown) =>
  fetch(base + path, {
    method,
    headers: {
      ...(authorization ? { Authorization: authorization } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

it("logs an app's bot and Bearer calls only in its own log, without tokens; sessions and unknown tokens nowhere", async () => {
  expect((await call('GET', '/api/v10/things/7/secret-value?code=abc&x=1', 'Bot bot-a')).status).toBe(200);
  expect((await call('GET', '/api/v10/things/8/t', 'Bearer bearer-a')).status).toBe(200);
  expect((await call('GET', '/api/v10/things/9/t', 'Bot bot-b')).status).toBe(200);
  expect((await call('GET', '/api/v10/things/9/t', 'session')).status).toBe(200);
  expect((await call('GET', '/api/v10/things/9/t', 'Bot nobody')).status).toBe(401);
  const a = await control.log.list(APP_A, { limit: 10 });
  expect(a.map((e) => e.path)).toEqual([
    '/api/v10/things/8/[redacted]',
    '/api/v10/things/7/[redacted]?code=%5Bredacted%5D&x=1',
  ]);
  expect(a[1]).toMatchObject({
    method: 'GET',
    route: 'GET /things/{thing_id}/{thing_token}',
    status: 200,
    error: null,
    warnings: [],
    fault_id: null,
  });
  expect(a[1]!.bucket).toMatch(/^[0-9a-f]{32}$/);
  expect(JSON.stringify(a)).not.toMatch(/bot-a|bearer-a|secret-value|abc/);
  expect((await control.log.list(APP_B, { limit: 10 })).map((e) => e.path)).toEqual([
    '/api/v10/things/9/[redacted]',
  ]);
});

it('names ignored fields in X-ACS-Warnings, printable whatever the client named them', async () => {
  const answer = await call('POST', '/api/v10/channels/5/messages', 'Bot bot-a', {
    content: 'x',
    'bad\u0001é': 1,
    embeds: [{ title: 't', colour: 1 }],
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('x-acs-warnings')).toBe(
    'unknown field "bad??" ignored; unknown field "embeds[0].colour" ignored',
  );
  const [entry] = await control.log.list(APP_A, { limit: 1 });
  expect(entry?.warnings).toEqual([
    'unknown field "bad??" ignored',
    'unknown field "embeds[0].colour" ignored',
  ]);
});

it("answers an app's matching calls with its fault, as many times as told, and no other app's", async () => {
  const fault = await control.faults.add(APP_A, {
    id: '42',
    route: 'POST /channels/:id/messages',
    status: 429,
    times: 2,
    delay_ms: 0,
    body: { retry_after: 2.5 },
  });
  expect((await call('POST', '/api/v10/channels/5/messages', 'Bot bot-b', {})).status).toBe(200);
  expect((await call('GET', '/api/v10/things/1/t', 'Bot bot-a')).status).toBe(200);
  const limited = await call('POST', '/api/v10/channels/5/messages', 'Bot bot-a', {});
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('3');
  expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(limited.headers.get('x-ratelimit-reset-after')).toBe('2.500');
  expect(limited.headers.get('via')).toBe('1.1 acs');
  expect(await limited.json()).toEqual({
    message: 'You are being rate limited.',
    retry_after: 2.5,
    global: false,
  });
  expect((await call('POST', '/api/v10/channels/5/messages', 'Bot bot-a', {})).status).toBe(429);
  expect((await call('POST', '/api/v10/channels/5/messages', 'Bot bot-a', {})).status).toBe(200);
  const [latest, second] = await control.log.list(APP_A, { limit: 2 });
  expect([latest?.fault_id, second?.fault_id]).toEqual([null, fault.id]);
  expect(second?.error).toEqual({ message: 'You are being rate limited.', retry_after: 2.5, global: false });
  expect(await control.faults.list(APP_A)).toEqual([]);
});
