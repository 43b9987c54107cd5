import { randomBytes } from 'node:crypto';
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { createAdminClient, type AdminRequest } from '../infra/src/admin-client';
import {
  createDemoWorld,
  spawnGateway,
  startTestStack,
  type DemoWorld,
  type GatewayReplica,
  type TestStack,
} from './support';

/**
 * The test controls of the admin API across two api-gateway replicas sharing Redis: a
 * fault injected through one fails the application's next calls made through the other
 * (a real @discordjs/rest client retries past a 429 and 500s), the request log read
 * through one shows the calls served by the other, newest first, with warnings and
 * without any token; another application's calls and faults stay its own.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const env = { REDIS_URL, REDIS_KEY_PREFIX: `test:test-controls:${randomBytes(6).toString('hex')}:` };

let stack: TestStack;
let replica: GatewayReplica;
/** The admin API through the stack's gateway; the bots call through the replica. */
let admin: AdminRequest;
let a: DemoWorld;
let b: DemoWorld;

beforeAll(async () => {
  stack = await startTestStack({ env });
  replica = await spawnGateway(stack, env);
  admin = createAdminClient(stack.apiUrl, stack.adminToken);
  a = await createDemoWorld(stack, { username: 'alice-owner', applicationName: 'App A' });
  b = await createDemoWorld(stack, { username: 'bob-owner', applicationName: 'App B' });
});

afterAll(async () => {
  await replica?.stop();
  await stack?.stop();
});

const restOf = (world: DemoWorld) =>
  new REST({ api: `${replica.url}/api`, retries: 3, timeout: 15_000 }).setToken(world.application.botToken);

interface Entry {
  id: string;
  method: string;
  route: string;
  path: string;
  status: number;
  error: Record<string, unknown> | null;
  bucket: string | null;
  duration_ms: number;
  warnings: string[];
  fault_id: string | null;
  timestamp: string;
}

/**
 * The application's log once it holds `count` entries (the replica writes in batches:
 * polled with a deadline, after which the caller's expectations show what there was).
 */
async function requestsOf(world: DemoWorld, count: number): Promise<Entry[]> {
  for (const deadline = Date.now() + 10_000; ;) {
    const answer = await admin<Entry[]>(
      'GET',
      `/admin/applications/${world.application.id}/requests?limit=1000`,
    );
    expect(answer.status).toBe(200);
    if (answer.body.length >= count || Date.now() > deadline) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('a 429 and two 500s injected through one replica fail the calls through the other; discord.js retries past them', async () => {
  const route = 'POST /channels/:id/messages';
  const limited = await admin('POST', `/admin/applications/${a.application.id}/faults`, {
    route,
    status: 429,
    times: 1,
    body: { retry_after: 0.5 },
  });
  expect(limited.status).toBe(201);
  expect(limited.body).toMatchObject({ route, status: 429, times: 1, remaining: 1, delay_ms: 0 });
  const failing = await admin('POST', `/admin/applications/${a.application.id}/faults`, {
    route: 'POST /channels/{channel_id}/messages',
    status: 500,
    times: 2,
  });
  expect(failing.status).toBe(201);
  expect((await admin('GET', `/admin/applications/${a.application.id}/faults`)).body).toHaveLength(2);

  // Another application's calls on the same route are not affected.
  const other = (await restOf(b).post(Routes.channelMessages(b.channel.id), { body: { content: 'b' } })) as {
    id: string;
  };
  expect(other.id).toMatch(/^\d+$/);

  const rest = restOf(a);
  const limits: unknown[] = [];
  rest.on('rateLimited', (info) => limits.push(info));
  const sent = (await rest.post(Routes.channelMessages(a.channel.id), { body: { content: 'through' } })) as {
    content: string;
  };
  expect(sent.content).toBe('through');
  expect(limits).toHaveLength(1);
  expect((await admin('GET', `/admin/applications/${a.application.id}/faults`)).body).toEqual([]);

  const log = await requestsOf(a, 4);
  expect(log.map((e) => [e.status, e.fault_id])).toEqual([
    [200, null],
    [500, failing.body.id],
    [500, failing.body.id],
    [429, limited.body.id],
  ]);
  const [ok, , , refused] = log as [Entry, Entry, Entry, Entry];
  expect(ok).toMatchObject({
    method: 'POST',
    route: 'POST /channels/{channel_id}/messages',
    path: `/api/v10/channels/${a.channel.id}/messages`,
    error: null,
    warnings: [],
  });
  expect(ok.bucket).toMatch(/^[0-9a-f]{32}$/);
  expect(ok.duration_ms).toBeGreaterThanOrEqual(0);
  expect(refused.error).toEqual({ message: 'You are being rate limited.', retry_after: 0.5, global: false });
  expect(log[1]!.error).toEqual({ message: '500: Internal Server Error', code: 0 });
  // Newest first, by id and by time.
  expect(BigInt(log[0]!.id) > BigInt(log[3]!.id)).toBe(true);

  // B's log has B's call only; no log names a token.
  const logB = await requestsOf(b, 1);
  expect(logB.map((e) => e.path)).toEqual([`/api/v10/channels/${b.channel.id}/messages`]);
  const text = JSON.stringify([log, logB]);
  expect(text).not.toContain(a.application.botToken);
  expect(text).not.toContain(b.application.botToken);
  expect(text).not.toMatch(/Bot |authorization/i);
});

it('a 429 carries Retry-After, the X-RateLimit headers and Discord body; a fault waits delay_ms first', async () => {
  await admin('POST', `/admin/applications/${a.application.id}/faults`, {
    route: 'GET /users/@me',
    status: 429,
    times: 1,
    delay_ms: 300,
  });
  const started = Date.now();
  const answer = await fetch(`${replica.url}/api/v10/users/@me`, {
    headers: { Authorization: `Bot ${a.application.botToken}` },
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  expect(answer.status).toBe(429);
  expect(answer.headers.get('retry-after')).toBe('1');
  expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(answer.headers.get('x-ratelimit-reset-after')).toBe('1.000');
  expect(answer.headers.get('x-ratelimit-scope')).toBe('user');
  expect(answer.headers.get('via')).toBe('1.1 acs');
  expect(await answer.json()).toEqual({
    message: 'You are being rate limited.',
    retry_after: 1,
    global: false,
  });
  const again = await fetch(`${replica.url}/api/v10/users/@me`, {
    headers: { Authorization: `Bot ${a.application.botToken}` },
  });
  expect(again.status).toBe(200);
});

it('names the fields ACS ignores in X-ACS-Warnings and the log', async () => {
  const answer = await fetch(`${replica.url}/api/v10/channels/${a.channel.id}/messages`, {
    method: 'POST',
    headers: { Authorization: `Bot ${a.application.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'warned', foo: 1, embeds: [{ title: 't', colour: 3 }] }),
  });
  expect(answer.status).toBe(200);
  const expected = ['unknown field "foo" ignored', 'unknown field "embeds[0].colour" ignored'];
  expect(answer.headers.get('x-acs-warnings')).toBe(expected.join('; '));
  const fine = await fetch(`${replica.url}/api/v10/channels/${a.channel.id}/messages`, {
    method: 'POST',
    headers: { Authorization: `Bot ${a.application.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'clean', tts: false }),
  });
  expect(fine.headers.get('x-acs-warnings')).toBeNull();
  // A's calls so far: 4 in the first test, 2 in the second, 2 here.
  const log = await requestsOf(a, 8);
  expect(log).toHaveLength(8);
  expect(log.find((e) => e.warnings.length > 0)?.warnings).toEqual(expected);
});

it('logs an interaction webhook call with its token redacted, and pages with before', async () => {
  const token = `aW50ZXJhY3Rpb24${randomBytes(12).toString('hex')}`;
  await admin('POST', `/admin/applications/${a.application.id}/faults`, {
    route: 'POST /webhooks/*',
    status: 503,
    times: 1,
  });
  const answer = await fetch(`${replica.url}/api/v10/webhooks/${a.application.id}/${token}?wait=true`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'x' }),
  });
  expect(answer.status).toBe(503);
  const log = await requestsOf(a, 9);
  expect(log).toHaveLength(9);
  expect(log[0]).toMatchObject({
    route: 'POST /webhooks/{webhook_id}/{webhook_token}',
    path: `/api/v10/webhooks/${a.application.id}/[redacted]?wait=true`,
    status: 503,
  });
  expect(JSON.stringify(log)).not.toContain(token);
  const page = await admin<Entry[]>(
    'GET',
    `/admin/applications/${a.application.id}/requests?limit=2&before=${log[0]!.id}`,
  );
  expect(page.body.map((e) => e.id)).toEqual([log[1]!.id, log[2]!.id]);
});

it('answers hostile input on the test-control routes with Discord error bodies, never a 5xx', async () => {
  const app = a.application.id;
  const unknown = '1000000000000000001';
  const cases: [string, string, unknown, number, number][] = [
    ['GET', `/admin/applications/${unknown}/requests`, undefined, 404, 10002],
    ['POST', `/admin/applications/${unknown}/faults`, { route: 'GET /x', status: 500, times: 1 }, 404, 10002],
    ['GET', `/admin/applications/${unknown}/faults`, undefined, 404, 10002],
    ['DELETE', `/admin/applications/${unknown}/faults`, undefined, 404, 10002],
    ['GET', '/admin/applications/9223372036854775808/requests', undefined, 400, 50035],
    ['GET', `/admin/applications/${app}/requests?limit=0`, undefined, 400, 50035],
    ['GET', `/admin/applications/${app}/requests?limit=abc`, undefined, 400, 50035],
    ['GET', `/admin/applications/${app}/requests?before=99999999999999999999`, undefined, 400, 50035],
    ['POST', `/admin/applications/${app}/faults`, { route: 'nope', status: 200, times: 0 }, 400, 50035],
    ['POST', `/admin/applications/${app}/faults`, [], 400, 50035],
    [
      'POST',
      `/admin/applications/${app}/faults`,
      { route: 'GET /x\u0000', status: 500, times: 1 },
      400,
      50035,
    ],
    ['DELETE', `/admin/applications/${app}/faults/123`, undefined, 404, 0],
    ['DELETE', `/admin/applications/${app}/faults/9223372036854775808`, undefined, 400, 50035],
  ];
  for (const [method, path, body, status, code] of cases) {
    const answer = await admin(method, path, body);
    expect({ method, path, status: answer.status, code: answer.body?.code }).toEqual({
      method,
      path,
      status,
      code,
    });
  }
  const bad = await admin('POST', `/admin/applications/${app}/faults`, {
    route: 'nope',
    status: 200,
    times: 0,
  });
  expect(Object.keys(bad.body.errors).sort()).toEqual(['route', 'status', 'times']);
  const anonymous = await fetch(`${stack.apiUrl}/admin/applications/${app}/requests`);
  expect(anonymous.status).toBe(401);
  // A bot token is no admin credential.
  const asBot = await fetch(`${stack.apiUrl}/admin/applications/${app}/requests`, {
    headers: { Authorization: `Bot ${a.application.botToken}` },
  });
  expect(asBot.status).toBe(401);
});
