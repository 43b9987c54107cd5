import { randomBytes } from 'node:crypto';
import { REST, RESTEvents } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { TcpProxy } from '@acs/testing';
import {
  createDemoWorld,
  spawnGateway,
  startTestStack,
  type GatewayReplica,
  type TestStack,
} from './support';

/**
 * Issue 15, shared rate limits: three api-gateway processes (the stack's and two more)
 * count in one Redis, reached through a TcpProxy that a test cuts to play an outage
 * without stopping the machine's Redis, which others' tests use. Every key of this file
 * is under a prefix of its own. Each test makes a new application, so that its bot's
 * buckets are new; each request names its own client address (X-Forwarded-For, trusted
 * from loopback), so that the 429s of a burst never add up to an address's
 * invalid-request block, except in the test of that limit.
 */
const REDIS = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
/** A route window long enough that none ends during a test. */
const ROUTE_LIMIT = 10;
const REPLICAS = 3;
/** Each replica's share while Redis is unreachable: the insurance limiter's points. */
const SHARE = Math.ceil(ROUTE_LIMIT / REPLICAS);
const INVALID_LIMIT = 6;

let proxy: TcpProxy;
let stack: TestStack;
let replicas: GatewayReplica[] = [];
let gateways: string[];

const prefix = `test:shared-limits:${randomBytes(6).toString('hex')}:`;
const env = () => ({
  REDIS_URL: `redis://127.0.0.1:${proxy.port}${REDIS.pathname}`,
  REDIS_KEY_PREFIX: prefix,
  RATE_LIMIT_REPLICAS: String(REPLICAS),
  RATE_LIMIT_GLOBAL_PER_SECOND: '0',
  RATE_LIMIT_ROUTE_LIMIT: String(ROUTE_LIMIT),
  RATE_LIMIT_ROUTE_WINDOW_SECONDS: '120',
  INVALID_REQUEST_LIMIT: String(INVALID_LIMIT),
  INVALID_REQUEST_WINDOW_SECONDS: '120',
  TRUST_PROXY: 'loopback',
});

beforeAll(async () => {
  proxy = new TcpProxy(REDIS.hostname, Number(REDIS.port || 6379));
  await proxy.open();
  stack = await startTestStack({ env: env() });
  replicas = await Promise.all([spawnGateway(stack, env()), spawnGateway(stack, env())]);
  gateways = [stack.apiUrl, ...replicas.map((r) => r.url)];
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await stack?.stop();
  await proxy?.close();
});

let addresses = 0;
/** A client address no other request of this file used. */
const newAddress = () => `198.18.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

const list = (gateway: string, applicationId: string, token: string, address = newAddress()) =>
  fetch(`${gateway}/api/v10/applications/${applicationId}/commands`, {
    headers: { Authorization: `Bot ${token}`, 'X-Forwarded-For': address },
  });

/** `count` requests at once, spread over the three gateways in turn. */
const burst = (count: number, applicationId: string, token: string) =>
  Promise.all(
    Array.from({ length: count }, (_, i) => list(gateways[i % gateways.length]!, applicationId, token)),
  );

const statusCount = (answers: Response[], status: number) =>
  answers.filter((a) => a.status === status).length;

it('three gateways sharing Redis accept no more than the limit in total, with one bucket', async () => {
  const { application } = await createDemoWorld(stack.admin);
  const answers = await burst(3 * ROUTE_LIMIT, application.id, application.botToken);

  expect(statusCount(answers, 200)).toBe(ROUTE_LIMIT);
  expect(statusCount(answers, 429)).toBe(2 * ROUTE_LIMIT);
  // One count: the accepted requests saw every remaining value once, whichever gateway answered.
  const remaining = answers
    .filter((a) => a.status === 200)
    .map((a) => Number(a.headers.get('x-ratelimit-remaining')));
  expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: ROUTE_LIMIT }, (_, i) => i));
  // The same bucket hash and limit from every gateway, on every answer (discord.py keys on it).
  expect(new Set(answers.map((a) => a.headers.get('x-ratelimit-bucket'))).size).toBe(1);
  expect(answers[0]!.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(answers.map((a) => a.headers.get('x-ratelimit-limit')))).toEqual(
    new Set([String(ROUTE_LIMIT)]),
  );
  const refused = answers.find((a) => a.status === 429)!;
  expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
});

it('blocks an address on every gateway once its invalid answers on all of them reach the limit', async () => {
  const { application } = await createDemoWorld(stack.admin);
  const address = newAddress();
  const statuses = [];
  for (let i = 0; i < INVALID_LIMIT; i++) {
    const made_up = randomBytes(24).toString('base64url');
    statuses.push((await list(gateways[i % gateways.length]!, application.id, made_up, address)).status);
  }
  expect(statuses).toEqual(Array(INVALID_LIMIT).fill(401));
  for (const gateway of gateways) {
    const blocked = await list(gateway, application.id, application.botToken, address);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('x-ratelimit-global')).toBe('true');
  }
  // The bot from another address is served.
  expect((await list(gateways[0]!, application.id, application.botToken)).status).toBe(200);
});

it('falls back to each gateway’s share without an error while Redis is cut, and counts in Redis again once it returns', async () => {
  const { application } = await createDemoWorld(stack.admin);
  const before = ROUTE_LIMIT / 2;
  const first = await burst(before, application.id, application.botToken);
  expect(statusCount(first, 200)).toBe(before);
  const bucket = first[0]!.headers.get('x-ratelimit-bucket');

  // Mid-burst: Redis cannot be reached. Each gateway counts its share in memory.
  await proxy.cut();
  const during = await burst(3 * ROUTE_LIMIT, application.id, application.botToken);
  expect(new Set(during.map((a) => a.status))).toEqual(new Set([200, 429]));
  // More than Redis had left (it would have refused all but ROUTE_LIMIT - before), at most the shares.
  expect(statusCount(during, 200)).toBeGreaterThan(ROUTE_LIMIT - before);
  expect(statusCount(during, 200)).toBeLessThanOrEqual(REPLICAS * SHARE);
  expect(new Set(during.map((a) => a.headers.get('x-ratelimit-bucket')))).toEqual(new Set([bucket]));

  // Redis returns. Each gateway's share is spent, so its first 200 is counted in Redis,
  // where `before` requests were already counted.
  await proxy.open();
  const restored: number[] = [];
  for (const gateway of gateways) {
    let answer = await list(gateway, application.id, application.botToken);
    for (const deadline = Date.now() + 30_000; answer.status === 429 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await list(gateway, application.id, application.botToken);
    }
    expect(answer.status).toBe(200);
    restored.push(Number(answer.headers.get('x-ratelimit-remaining')));
  }
  // One count again, carried on from before the outage.
  const counted = before + REPLICAS;
  expect(restored).toEqual(Array.from({ length: REPLICAS }, (_, i) => ROUTE_LIMIT - before - 1 - i));
  const after = await burst(ROUTE_LIMIT, application.id, application.botToken);
  expect(statusCount(after, 200)).toBe(ROUTE_LIMIT - counted);
  expect(statusCount(after, 429)).toBe(counted);
});

it('lets @discordjs/rest finish a burst of 200 requests against Discord’s limits without a 429 surfacing', async () => {
  // A gateway at Discord's limits (50 a second, per route and global), straight to Redis.
  const discord = await spawnGateway(stack, {
    REDIS_URL: REDIS.href,
    REDIS_KEY_PREFIX: `${prefix}discordjs:`,
    RATE_LIMIT_GLOBAL_PER_SECOND: '50',
    RATE_LIMIT_ROUTE_LIMIT: '50',
    RATE_LIMIT_ROUTE_WINDOW_SECONDS: '1',
    INVALID_REQUEST_LIMIT: '0',
  });
  try {
    const { application } = await createDemoWorld(stack.admin);
    const rest = new REST({ api: `${discord.url}/api`, version: '10' }).setToken(application.botToken);
    let waited = 0;
    let refused = 0;
    rest.on(RESTEvents.RateLimited, () => waited++);
    rest.on(RESTEvents.Response, (_request, response) => {
      if (response.status === 429) refused++;
    });
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => rest.get(Routes.applicationCommands(application.id))),
    );
    expect(answers.every((answer) => Array.isArray(answer))).toBe(true);
    // It was held back by the limits (it waited for a bucket to reset), and every 429 it
    // may have met was retried without reaching the caller.
    expect(waited).toBeGreaterThan(0);
    process.stdout.write(`@discordjs/rest: 200 requests, waited ${waited} times, met ${refused} 429s\n`);
  } finally {
    await discord.stop();
  }
});
