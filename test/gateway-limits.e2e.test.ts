import WebSocket from 'ws';
import {
  createApplication,
  createDemoWorld,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { GatewayTestClient } from './helpers/gateway-client';

/**
 * The gateway's limits through the whole stack: Identifies beyond max_concurrency and
 * beyond session_start_limit.total are refused (Invalid Session, then close 4008) and
 * GET /gateway/bot says so; a socket that never identifies is closed (4003); one address
 * cannot hold more than its share of sockets (HTTP 429 on the upgrade).
 *
 * Four buckets (max_concurrency 4) with a window far longer than any test lets the
 * total be reached without waiting: shards 0-2 of 4 use the three starts.
 */
const LIMITS = {
  SESSION_START_LIMIT: '3',
  IDENTIFY_MAX_CONCURRENCY: '4',
  IDENTIFY_CONCURRENCY_WINDOW_MS: '600000',
  IDENTIFY_TIMEOUT_MS: '6000',
  GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: '12',
};

let stack: TestStack;
let world: DemoWorld;
let gatewayUrl: string;
const clients: GatewayTestClient[] = [];

async function connect(): Promise<GatewayTestClient> {
  const client = await GatewayTestClient.connect(gatewayUrl);
  clients.push(client);
  return client;
}

/** A new application's bot (its own limits). */
async function newBot(name: string): Promise<{ id: string; token: string }> {
  const app = await createApplication(stack, { name, owner_id: world.user.id });
  return { id: app.id, token: app.bot_token };
}

async function gatewayBot(token: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${stack.apiUrl}/api/v10/gateway/bot`, {
    headers: { authorization: `Bot ${token}` },
  });
  return { status: response.status, body: await response.json() };
}

function sendIdentify(client: GatewayTestClient, token: string, shard?: [number, number]): void {
  client.send({ op: 2, d: { token, intents: 0, properties: {}, ...(shard ? { shard } : {}) } });
}

/** Waits until every socket of this file has closed, so that the next test starts with none. */
async function closeAll(): Promise<void> {
  const open = clients.splice(0);
  for (const client of open) client.close(1000);
  await Promise.all(open.map((client) => client.closed));
}

beforeAll(async () => {
  stack = await startTestStack({ env: LIMITS });
  world = await createDemoWorld(stack);
  gatewayUrl = (await gatewayBot(world.application.botToken)).body.url;
});

afterEach(closeAll);

afterAll(async () => {
  await stack?.stop();
});

describe('Identify limits', () => {
  it('an Identify flood beyond max_concurrency: one READY, every other Invalid Session and 4008', async () => {
    const bot = await newBot('Flood Bot');
    const flood = await Promise.all(Array.from({ length: 10 }, connect));
    await Promise.all(flood.map((client) => client.next((p) => p.op === 10)));
    for (const client of flood) sendIdentify(client, bot.token);

    const outcomes = await Promise.all(
      flood.map((client) => Promise.race([client.closed, client.dispatch('READY', 30_000)])),
    );
    const ready = outcomes.filter((o) => 't' in o);
    expect(ready).toHaveLength(1);
    const closes = outcomes.filter((o): o is { code: number; reason: string } => 'code' in o);
    expect(closes).toHaveLength(9);
    for (const close of closes) {
      expect(close).toEqual({
        code: 4008,
        reason: expect.stringMatching(
          /^Rate limited: max_concurrency 4 Identify per 600 s; retry in \d+ s\.$/,
        ),
      });
    }
    for (const client of flood.filter((_, i) => 'code' in outcomes[i]!)) {
      expect(client.received.map((p) => [p.op, p.d])).toEqual([
        [10, expect.anything()],
        [9, false],
      ]);
    }
    // One session start, as /gateway/bot tells.
    const limit = (await gatewayBot(bot.token)).body.session_start_limit;
    expect(limit).toMatchObject({ total: 3, remaining: 2, max_concurrency: 4 });
  });

  it('refuses the Identify after remaining reached 0, and keeps the token working', async () => {
    const bot = await newBot('Thrifty Bot');
    expect((await gatewayBot(bot.token)).body.session_start_limit).toEqual({
      total: 3,
      remaining: 3,
      reset_after: 0,
      max_concurrency: 4,
    });
    // Shards 0, 1 and 2 of 4: three buckets, so max_concurrency holds none of them.
    const sessions = [];
    for (const shard of [0, 1, 2]) {
      const client = await connect();
      sessions.push(await client.identify(bot.token, { shard: [shard, 4] }));
    }
    const used = (await gatewayBot(bot.token)).body.session_start_limit;
    expect(used).toMatchObject({ total: 3, remaining: 0 });
    expect(used.reset_after).toBeGreaterThan(86_000_000);

    const refused = await connect();
    await refused.next((p) => p.op === 10);
    sendIdentify(refused, bot.token, [3, 4]);
    expect(await refused.closed).toEqual({
      code: 4008,
      reason: expect.stringMatching(/^Rate limited: all 3 session starts used; retry in \d+ s\.$/),
    });
    expect((await gatewayBot(bot.token)).body.session_start_limit.remaining).toBe(0);

    // The token was not reset: the API takes it, and a dropped session resumes.
    expect((await gatewayBot(bot.token)).status).toBe(200);
    clients[0]!.close(4000);
    await clients[0]!.closed;
    const resumer = await connect();
    await resumer.next((p) => p.op === 10);
    resumer.send({ op: 6, d: { token: bot.token, session_id: sessions[0]!.d.session_id, seq: 1 } });
    await resumer.dispatch('RESUMED');
  });
});

describe('sockets', () => {
  it('closes a socket that never identifies with 4003, heartbeats or not', async () => {
    const silent = await connect();
    const heartbeating = await connect();
    const beats = setInterval(() => heartbeating.send({ op: 1, d: null }), 500);
    try {
      for (const client of [silent, heartbeating]) {
        expect(await client.closed).toEqual({
          code: 4003,
          reason: 'Not authenticated: no Identify within 6 s.',
        });
      }
    } finally {
      clearInterval(beats);
    }
    expect(heartbeating.received.filter((p) => p.op === 11).length).toBeGreaterThan(0);
  });

  it('refuses the upgrade past the connections of one address with 429, and takes one again once some closed', async () => {
    const held = await Promise.all(Array.from({ length: 12 }, connect));
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${gatewayUrl}/?v=10&encoding=json`);
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => reject(new Error('a 13th socket was let in')));
      socket.once('error', reject);
    });
    expect(status).toBe(429);

    // The identify deadline closes the held sockets; then there is room again.
    await Promise.all(held.map((client) => client.closed));
    for (const deadline = Date.now() + 10_000; ;) {
      try {
        await connect();
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
});
