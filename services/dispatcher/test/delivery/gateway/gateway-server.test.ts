import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import WebSocket from 'ws';
import { loadDispatcherProto } from '@acs/protos';
import { callUnary, createGrpcClient, createLogger, serviceDatabaseUrl } from '@acs/service-kit';
import {
  createTestDatabase,
  findTestServers,
  GatewayTestClient,
  type Received,
  type TestDatabase,
} from '@acs/testing';
import type { OAuthClient } from '../../../src/clients/oauth-client';
import type { PermissionsClient } from '../../../src/clients/permissions-client';
import { DB_SCHEMA } from '../../../src/config';
import { createServer } from '../../../src/create-server';
import type { IdentifyLimits } from '../../../src/domain/identify-limits';
import { compileTrustProxy, type TrustProxy } from '../../../src/delivery/gateway/compile-trust-proxy';
import { DispatchBus } from '../../../src/delivery/gateway/dispatch-bus';
import { startGatewayServer, type GatewayServer } from '../../../src/delivery/gateway/gateway-server';
import { PresenceAnnouncer } from '../../../src/delivery/gateway/presence-announcer';
import { SessionRegistry } from '../../../src/delivery/gateway/session-registry';
import { MemberRequestStore } from '../../../src/store/member-request-store';
import { IdentifyStore } from '../../../src/store/identify-store';
import { PresenceStore } from '../../../src/store/presence-store';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Discord's limits, with a concurrency window long enough that a busy machine stays inside it. */
const LIMITS: IdentifyLimits = {
  total: 1000,
  windowMs: DAY_MS,
  maxConcurrency: 1,
  concurrencyWindowMs: 60_000,
};

let database: TestDatabase;
let pool: Pool;
let nats: NatsConnection;
let bus: DispatchBus;
const servers: GatewayServer[] = [];
const registries: SessionRegistry[] = [];
const clients: GatewayTestClient[] = [];
let nextApplication = 1400000000000000000n;

let nextUser = 1450000000000000000n;

/** The application the Bearer tokens of the fake oauth were granted to. */
const SOCIAL_APP = '1490000000000000001';

/**
 * oauth and permissions, the network edge: a token `token:<id>` is application <id>'s
 * bot, which is in one guild; a token `session:<id>` is a chat-client session of user <id>,
 * who is in two guilds; an access token `bearer:<id>:<scope,scope>` is user <id>'s, granted
 * to SOCIAL_APP with those scopes.
 */
const oauth = {
  resolveBotToken: async (token: string) => (token.startsWith('token:') ? token.slice(6) : undefined),
  resolveUserSession: async (token: string) => (token.startsWith('session:') ? token.slice(8) : undefined),
  resolveBearer: async (token: string) => {
    const [kind, userId, scopes] = token.split(':');
    return kind === 'bearer'
      ? { userId, applicationId: SOCIAL_APP, scopes: (scopes ?? '').split(',') }
      : undefined;
  },
  currentUserOfBearer: async (userId: string, scopes: readonly string[]) => ({
    id: userId,
    username: 'provisional_1',
    discriminator: '0',
    flags: 1 << 23,
    ...(scopes.includes('email') ? { email: 'someone@example.com' } : {}),
  }),
  currentUser: async (userId: string) => ({
    id: userId,
    username: 'someone',
    discriminator: '0',
    email: 'someone@example.com',
    verified: true,
  }),
  forgetSettings: () => undefined,
  settings: async (applicationId: string) => ({
    applicationId,
    // GATEWAY_PRESENCE (1 << 12) granted: GUILD_PRESENCES is allowed, GUILD_MEMBERS is not.
    flags: 1 << 12,
    botUser: { id: applicationId, username: 'bot', discriminator: '0000', bot: true },
  }),
  profilePrivacy: async () => 'everyone',
  botGuilds: async (applicationId: string) => [`${applicationId}1`],
  user: async (userId: string) => ({ id: userId, username: 'someone', discriminator: '0' }),
} as unknown as OAuthClient;
const permissions: PermissionsClient = {
  guild: async (guildId: string) => ({ guild: { id: guildId, name: 'Guild', roles: [] }, channels: [] }),
  memberGuilds: async (userId: string) => [
    { id: `${userId}1`, name: 'One', owner: true, permissions: '8' },
    { id: `${userId}2`, name: 'Two', owner: false, permissions: '1024' },
  ],
  canViewChannel: async () => false,
  memberGuildCounts: async () => [],
  guildBots: async () => new Map(),
  updateVoiceState: async () => false,
  channelInfo: async () => [],
  guildMembers: async () => ({ members: [], notFound: [] }),
  holdersOf: async () => [],
};

beforeAll(async () => {
  database = await createTestDatabase(['dispatcher']);
  pool = new Pool({ connectionString: serviceDatabaseUrl(database.url, DB_SCHEMA), max: 10 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  nats = await connect({ servers: (await findTestServers()).natsUrl });
  bus = new DispatchBus(nats, `gwtest${process.pid}`);
}, 60_000);

afterEach(async () => {
  for (const client of clients.splice(0)) client.close(1000);
  for (const registry of registries.splice(0)) registry.closeAll();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  await nats?.close();
  await pool?.end();
  await database?.drop();
});

/** A new application's bot token and id. */
function newBot(): { applicationId: string; token: string } {
  nextApplication += 1n;
  return { applicationId: String(nextApplication), token: `token:${nextApplication}` };
}

/** A new user's session token and id. */
function newUser(): { userId: string; token: string } {
  nextUser += 1n;
  return { userId: String(nextUser), token: `session:${nextUser}` };
}

/** Starts a dispatcher replica's gateway over the shared database and NATS. */
async function startReplica(
  options: {
    limits?: IdentifyLimits;
    identifyTimeoutMs?: number;
    maxConnectionsPerAddress?: number;
    trustProxy?: TrustProxy;
  } = {},
): Promise<{ url: string; identifies: IdentifyStore }> {
  const identifies = new IdentifyStore(pool, options.limits ?? LIMITS);
  const presences = new PresenceAnnouncer({
    store: new PresenceStore(pool),
    oauth,
    permissions,
    bus,
    logger: createLogger('dispatcher-test', 'silent'),
  });
  const registry = new SessionRegistry(bus, {
    resumeWindowMs: 60_000,
    replayBufferSize: 100,
    canViewChannel: permissions.canViewChannel,
    guildView: (guildId, viewerId) => permissions.guild(guildId, viewerId),
    logger: createLogger('dispatcher-test', 'silent'),
    onSessionEnd: (session) => presences.end(session.id),
  });
  const server = await startGatewayServer(
    {
      registry,
      oauth,
      permissions,
      identifies,
      memberRequests: new MemberRequestStore(pool, 30_000),
      privilegedIntentsGuildThreshold: 100,
      logger: createLogger('dispatcher-test', 'silent'),
      heartbeatIntervalMs: 60_000,
      identifyTimeoutMs: options.identifyTimeoutMs ?? 60_000,
      publicUrl: 'ws://127.0.0.1:0',
      presences,
    },
    {
      host: '127.0.0.1',
      port: 0,
      maxConnectionsPerAddress: options.maxConnectionsPerAddress ?? 0,
      trustProxy: options.trustProxy ?? compileTrustProxy('false'),
    },
  );
  servers.push(server);
  registries.push(registry);
  return { url: `ws://127.0.0.1:${server.port}`, identifies };
}

async function open(url: string): Promise<GatewayTestClient> {
  const client = await GatewayTestClient.connect(url);
  clients.push(client);
  return client;
}

/** Sends Identify once Hello came (the token and optional shard). */
async function sendIdentify(
  client: GatewayTestClient,
  token: string,
  shard?: [number, number],
): Promise<void> {
  await client.next((p) => p.op === 10);
  client.send({ op: 2, d: { token, intents: 0, properties: {}, ...(shard ? { shard } : {}) } });
}

/** READY, or the close that came instead. */
async function outcome(client: GatewayTestClient): Promise<Received | { code: number; reason: string }> {
  // The close first: a socket already closed must not lose the race to the failed wait.
  return Promise.race([client.closed, client.dispatch('READY', 30_000)]);
}

/** GET /gateway/bot's session_start_limit, as the dispatcher's gRPC server answers it. */
async function startLimit(identifies: IdentifyStore, applicationId: string) {
  const server = createServer({
    logger: createLogger('dispatcher-test', 'silent'),
    identifies,
    publicUrl: 'ws://gateway',
    oauth,
    poster: undefined as never,
    deliveries: undefined as never,
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  const client = createGrpcClient(
    loadDispatcherProto().acs.dispatcher.v1.DispatcherService,
    `127.0.0.1:${port}`,
  );
  try {
    return (await callUnary(client, client.GetGateway, { application_id: applicationId }))
      .session_start_limit;
  } finally {
    client.close();
    await server.drain();
  }
}

describe('Identify limits', () => {
  it('an Identify flood beyond max_concurrency: one READY, every other Invalid Session then 4008, across replicas', async () => {
    const bot = newBot();
    const replicas = [await startReplica(), await startReplica()];
    const flood = await Promise.all(Array.from({ length: 10 }, (_, i) => open(replicas[i % 2]!.url)));
    await Promise.all(flood.map((client) => sendIdentify(client, bot.token)));
    const outcomes = await Promise.all(flood.map(outcome));

    const ready = flood.filter((_, i) => 't' in outcomes[i]!);
    expect(ready).toHaveLength(1);
    // The guild READY listed comes filled in, marked available.
    expect((await ready[0]!.dispatch('GUILD_CREATE')).d).toMatchObject({ unavailable: false });
    for (const client of flood.filter((c) => c !== ready[0])) {
      const closed = await client.closed;
      expect(closed).toEqual({
        code: 4008,
        reason: expect.stringMatching(/^Rate limited: max_concurrency 1 /),
      });
      expect(client.received.map((p) => p.op)).toEqual([10, 9]);
      expect(client.received[1]!.d).toBe(false);
    }
    // Refused Identifies are no session starts: /gateway/bot counts one.
    expect(await startLimit(replicas[0]!.identifies, bot.applicationId)).toMatchObject({
      total: 1000,
      remaining: 999,
      max_concurrency: 1,
    });
  });

  it('holds each bucket (shard_id % max_concurrency) apart, and Resume is no Identify', async () => {
    const bot = newBot();
    const { url } = await startReplica({ limits: { ...LIMITS, maxConcurrency: 2 } });
    const [first, second, third] = [await open(url), await open(url), await open(url)];
    await sendIdentify(first, bot.token, [0, 4]);
    const ready = await first.dispatch('READY');
    await sendIdentify(second, bot.token, [1, 4]);
    await second.dispatch('READY');
    await sendIdentify(third, bot.token, [2, 4]); // 2 % 2: bucket 0 again
    expect((await third.closed).code).toBe(4008);

    first.close(4000);
    await first.closed;
    const resumer = await open(url);
    await resumer.next((p) => p.op === 10);
    resumer.send({ op: 6, d: { token: bot.token, session_id: ready.d.session_id, seq: 1 } });
    await resumer.dispatch('RESUMED');
  });

  it('refuses the Identify after the last session start (4008), never resetting the token; /gateway/bot agrees', async () => {
    const bot = newBot();
    // A concurrency window of 1 ms: only the total limits these Identifies.
    const { url, identifies } = await startReplica({
      limits: { ...LIMITS, total: 2, concurrencyWindowMs: 1 },
    });
    const sessions: Received[] = [];
    for (let i = 0; i < 2; i++) {
      const client = await open(url);
      sessions.push(await client.identify(bot.token));
    }
    const advertised = await startLimit(identifies, bot.applicationId);
    expect(advertised).toMatchObject({ total: 2, remaining: 0 });
    expect(advertised!.reset_after).toBeGreaterThan(DAY_MS - 60_000);

    const refused = await open(url);
    await sendIdentify(refused, bot.token);
    expect(await refused.closed).toEqual({
      code: 4008,
      reason: expect.stringMatching(/^Rate limited: all 2 session starts used; retry in \d+ s\.$/),
    });
    expect(refused.received.map((p) => p.op)).toEqual([10, 9]);

    // The token still works: the open sessions go on, and one resumes after a drop.
    clients[0]!.close(4000);
    await clients[0]!.closed;
    const resumer = await open(url);
    await resumer.next((p) => p.op === 10);
    resumer.send({ op: 6, d: { token: bot.token, session_id: sessions[0]!.d.session_id, seq: 1 } });
    await resumer.dispatch('RESUMED');
  });

  it('sends the Invalid Session before the 4008 on a zlib-stream socket too', async () => {
    const bot = newBot();
    const { url } = await startReplica();
    await (await open(url)).identify(bot.token);

    const socket = new WebSocket(`${url}/?v=10&encoding=json&compress=zlib-stream`);
    const chunks: Buffer[] = [];
    socket.on('message', (data: Buffer) => {
      chunks.push(data);
      if (chunks.length === 1)
        socket.send(JSON.stringify({ op: 2, d: { token: bot.token, intents: 0, properties: {} } }));
    });
    const code = await new Promise<number>((resolve) => socket.on('close', resolve));
    expect(code).toBe(4008);
    const text = inflateSync(Buffer.concat(chunks), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString();
    expect(text).toContain('{"op":9,"d":false,"s":null,"t":null}');
  });
});

describe('presence across replicas', () => {
  afterEach(() => {
    permissions.memberGuildCounts = async () => [];
    permissions.guildBots = async () => new Map();
  });

  it("announces a user's presence to a bot on another replica, keeps it in the database, and goes offline after the last session", async () => {
    const bot = newBot();
    const user = newUser();
    const guildId = `${user.userId}1`;
    permissions.memberGuildCounts = async (id) => (id === user.userId ? [{ guildId, memberCount: 3 }] : []);
    permissions.guildBots = async (ids) =>
      new Map(ids.map((id) => [id, id === guildId ? [bot.applicationId] : []]));
    const limits = { ...LIMITS, concurrencyWindowMs: 1 };
    const a = await startReplica({ limits });
    const b = await startReplica({ limits });
    const watcher = await open(a.url);
    await watcher.identify(bot.token, { intents: 1 << 8 });
    const deaf = await open(a.url);
    // Without GUILD_PRESENCES a session is sent none.
    await deaf.identify(bot.token, { intents: 1 });
    const presenceOf = (status: string, from: number) =>
      watcher.next(
        (p) => p.t === 'PRESENCE_UPDATE' && (p.d as { status: string }).status === status,
        10_000,
        from,
      );

    const first = await open(b.url);
    await first.identify(user.token, { intents: undefined, capabilities: 16381 });
    expect((await presenceOf('online', 0)).d).toEqual({
      user: { id: user.userId, username: 'someone', discriminator: '0' },
      guild_id: guildId,
      status: 'online',
      activities: [],
      client_status: { desktop: 'online' },
    });
    let mark = watcher.received.length;
    const second = await open(a.url);
    await second.identify(user.token, { intents: undefined, capabilities: 16381 });
    // Its connection's `online` recorded (and announced) before the first session's op 3.
    await presenceOf('online', mark);
    mark = watcher.received.length;
    first.send({
      op: 3,
      d: { since: null, status: 'idle', afk: true, activities: [{ name: 'Go', type: 0 }] },
    });
    expect((await presenceOf('idle', mark)).d).toMatchObject({
      activities: [expect.objectContaining({ name: 'Go', type: 0, created_at: expect.any(Number) })],
    });
    const store = new PresenceStore(pool);
    expect(await store.presencesOf(guildId, [user.userId, '1'])).toEqual([
      expect.objectContaining({ user: { id: user.userId }, guild_id: guildId, status: 'idle' }),
    ]);

    // One session ends: the other one's presence (its last set, `online` at its Identify) stands.
    mark = watcher.received.length;
    first.close(1000);
    await presenceOf('online', mark);
    expect((await store.latestOf([user.userId])).get(user.userId)?.presence.status).toBe('online');
    mark = watcher.received.length;
    second.close(1000);
    expect((await presenceOf('offline', mark)).d).toMatchObject({ activities: [], client_status: {} });
    expect(await store.presencesOf(guildId, [user.userId])).toEqual([]);
    expect(deaf.received.some((p) => p.t === 'PRESENCE_UPDATE')).toBe(false);
  });
  it("keeps a session's presence changes in order: an op 3 right after READY, a close right after an op 3", async () => {
    const bot = newBot();
    const user = newUser();
    const guildId = `${user.userId}1`;
    permissions.memberGuildCounts = async (id) => (id === user.userId ? [{ guildId, memberCount: 3 }] : []);
    permissions.guildBots = async (ids) =>
      new Map(ids.map((id) => [id, id === guildId ? [bot.applicationId] : []]));
    const a = await startReplica({ limits: { ...LIMITS, concurrencyWindowMs: 1 } });
    const watcher = await open(a.url);
    await watcher.identify(bot.token, { intents: 1 << 8 });
    const statuses = () =>
      watcher.received
        .filter((p) => p.t === 'PRESENCE_UPDATE')
        .map((p) => (p.d as { status: string }).status);
    // The first change of each pair is slow to learn the user's privacy setting.
    const original = oauth.profilePrivacy;
    let slow = true;
    oauth.profilePrivacy = async (...args) => {
      if (slow) {
        slow = false;
        await new Promise((r) => setTimeout(r, 300));
      }
      return original.apply(oauth, args);
    };
    try {
      const session = await open(a.url);
      await session.identify(user.token, { intents: undefined, capabilities: 16381 });
      session.send({ op: 3, d: { since: null, status: 'dnd', afk: false, activities: [] } });
      await watcher.next((p) => p.t === 'PRESENCE_UPDATE' && (p.d as { status: string }).status === 'dnd');
      expect(statuses()).toEqual(['online', 'dnd']);
      const store = new PresenceStore(pool);
      expect((await store.latestOf([user.userId])).get(user.userId)?.presence.status).toBe('dnd');

      slow = true;
      session.send({ op: 3, d: { since: null, status: 'idle', afk: true, activities: [] } });
      await new Promise((r) => setTimeout(r, 50));
      session.close(1000);
      await watcher.next(
        (p) => p.t === 'PRESENCE_UPDATE' && (p.d as { status: string }).status === 'offline',
      );
      expect(statuses()).toEqual(['online', 'dnd', 'idle', 'offline']);
      // The ended session left no presence behind.
      expect(await store.presencesOf(guildId, [user.userId])).toEqual([]);
    } finally {
      oauth.profilePrivacy = original;
    }
  });
});

describe('PresenceStore', () => {
  it("stops counting a dead replica's rows once they are stale, and prunes them; a live replica renews its own", async () => {
    const user = newUser();
    const dead = new PresenceStore(pool, 'dead-replica', 200);
    const live = new PresenceStore(pool, 'live-replica', 200);
    const presence = { since: null, status: 'online' as const, afk: false, activities: [] };
    await dead.put('dead-session', {
      userId: user.userId,
      presence,
      setter: 'user',
      profilePrivacy: 'everyone',
    });
    // The later update is the user's presence: a few milliseconds apart, so that the two rows'
    // `updated_at` (millisecond precision) cannot tie.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await live.put('live-session', {
      userId: user.userId,
      presence: { ...presence, status: 'dnd' },
      setter: 'user',
      profilePrivacy: 'everyone',
    });
    expect((await live.latestOf([user.userId])).get(user.userId)?.presence.status).toBe('dnd');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await live.renew()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    // The dead replica's row (older) is past the bound; the live one's was renewed.
    expect(await live.presencesOf('1', [user.userId])).toEqual([
      expect.objectContaining({ user: { id: user.userId }, status: 'dnd' }),
    ]);
    expect(await live.prune()).toBeGreaterThanOrEqual(1);
    expect(await live.remove('dead-session')).toBeNull();
    expect(await live.remove('live-session')).toEqual({ userId: user.userId, latest: undefined });
  });
});

describe('privileged intents', () => {
  it('closes 4014 for an intent the app was not granted, before the Identify counts', async () => {
    const bot = newBot();
    const { url } = await startReplica();
    const refused = await open(url);
    await refused.next((p) => p.op === 10);
    refused.send({ op: 2, d: { token: bot.token, intents: (1 << 0) | (1 << 1), properties: {} } });
    expect(await refused.closed).toEqual({ code: 4014, reason: 'Disallowed intent(s).' });
    // max_concurrency is one Identify per window: the refused one took none of it.
    const granted = await open(url);
    await sendIdentify(granted, bot.token);
    await granted.dispatch('READY');
  });
});

describe("a user's chat-client session", () => {
  /** Sends a chat client's Identify (no intents: `capabilities`, as the official client) once Hello came. */
  async function identifyAsUser(client: GatewayTestClient, token: string): Promise<void> {
    await client.next((p) => p.op === 10);
    client.send({
      op: 2,
      d: { token, capabilities: 16381, properties: { os: 'Linux', browser: 'Discord Client' } },
    });
  }

  it('identifies with a session token and no intents: READY with the user whole and their guilds, no GUILD_CREATE', async () => {
    const user = newUser();
    const { url } = await startReplica({ limits: { ...LIMITS, concurrencyWindowMs: 1 } });
    const client = await open(url);
    await identifyAsUser(client, user.token);
    const ready = await client.dispatch('READY');
    expect(ready).toMatchObject({ s: 1, op: 0 });
    expect(ready.d).toEqual({
      v: 10,
      user: expect.objectContaining({ id: user.userId, email: 'someone@example.com', verified: true }),
      user_settings: {},
      guilds: [
        { id: `${user.userId}1`, name: 'One', owner: true, permissions: '8', unavailable: false },
        { id: `${user.userId}2`, name: 'Two', owner: false, permissions: '1024', unavailable: false },
      ],
      session_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      session_type: 'normal',
      resume_gateway_url: 'ws://127.0.0.1:0',
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      auth: {},
      _trace: ['acs-dispatcher'],
    });
    // Heartbeats as a bot's; nothing follows READY.
    client.send({ op: 1, d: 1 });
    await client.next((p) => p.op === 11);
    expect(client.received.filter((p) => p.op === 0).map((p) => p.t)).toEqual(['READY']);

    // Intents a chat client sends anyway are ignored, as is a shard.
    const withIntents = await open(url);
    await sendIdentify(withIntents, user.token, [1, 2]);
    expect((await withIntents.dispatch('READY')).d).not.toHaveProperty('shard');
  });

  it('closes with 4004 for an unknown session token or a session token sent as a bot token, 4013 for a bot without intents', async () => {
    const user = newUser();
    const bot = newBot();
    const { url } = await startReplica();
    const cases: Array<[string, unknown, number]> = [
      ['session:', undefined, 4004],
      ['nonsense', undefined, 4004],
      [`Bot ${user.token}`, 0, 4004],
      [bot.token, undefined, 4013],
      [bot.token, 'all', 4013],
      [`Bot ${bot.token}`, undefined, 4013],
    ];
    for (const [token, intents, code] of cases) {
      const client = await open(url);
      await client.next((p) => p.op === 10);
      client.send({ op: 2, d: { token, ...(intents === undefined ? {} : { intents }), properties: {} } });
      expect([token, (await client.closed).code]).toEqual([token, code]);
    }
  });

  it("resumes with the dispatches missed, only with the user's own token", async () => {
    const user = newUser();
    const other = newUser();
    const { url } = await startReplica({ limits: { ...LIMITS, concurrencyWindowMs: 1 } });
    const first = await open(url);
    await identifyAsUser(first, user.token);
    const ready = await first.dispatch('READY');
    first.close(4000);
    await first.closed;

    // Dispatched while away: buffered for the resume.
    bus.send({
      to: 'user',
      userId: user.userId,
      message: { t: 'INTERACTION_SUCCESS', d: { id: '1', nonce: null }, sessionId: null },
    });
    await bus.flush();

    const foreign = await open(url);
    await foreign.next((p) => p.op === 10);
    foreign.send({ op: 6, d: { token: other.token, session_id: ready.d.session_id, seq: 1 } });
    expect(await foreign.next((p) => p.op === 9)).toMatchObject({ d: false });

    const resumer = await open(url);
    await resumer.next((p) => p.op === 10);
    resumer.send({ op: 6, d: { token: user.token, session_id: ready.d.session_id, seq: 1 } });
    await resumer.dispatch('RESUMED');
    expect(resumer.received.filter((p) => p.op === 0).map((p) => [p.t, p.s])).toEqual([
      ['INTERACTION_SUCCESS', 2],
      ['RESUMED', 3],
    ]);
  });

  it('counts Identifies per user, apart from other users and from bots', async () => {
    const user = newUser();
    const other = newUser();
    const { url, identifies } = await startReplica();
    const first = await open(url);
    await identifyAsUser(first, user.token);
    await first.dispatch('READY');

    const second = await open(url);
    await identifyAsUser(second, user.token);
    expect(await second.closed).toEqual({
      code: 4008,
      reason: expect.stringMatching(/^Rate limited: max_concurrency 1 Identify per 60 s; retry in \d+ s\.$/),
    });
    expect(second.received.map((p) => p.op)).toEqual([10, 9]);

    const third = await open(url);
    await identifyAsUser(third, other.token);
    await third.dispatch('READY');
    expect((await identifies.usage({ kind: 'user', userId: user.userId })).count).toBe(1);
  });
});

describe("a Social SDK client's Bearer session", () => {
  /** Identifies as the Social SDK client does: `Bearer <access token>`, no intents. */
  async function identifyWithBearer(client: GatewayTestClient, token: string): Promise<void> {
    await client.next((p) => p.op === 10);
    client.send({ op: 2, d: { token: `Bearer ${token}`, capabilities: 0, properties: {} } });
  }

  it("identifies with sdk.social_layer: READY with the user as the token shows them, no guilds, its application's lobbies only", async () => {
    const { userId } = newUser();
    const { url } = await startReplica({ limits: { ...LIMITS, concurrencyWindowMs: 1 } });
    const client = await open(url);
    await identifyWithBearer(client, `bearer:${userId}:identify,sdk.social_layer`);
    const ready = await client.dispatch('READY');
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: userId, username: 'provisional_1', flags: 1 << 23 },
      guilds: [],
      session_type: 'normal',
    });
    expect(ready.d.user).not.toHaveProperty('email');
    expect(ready.d).not.toHaveProperty('application');

    const lobbyMessage = (lobbyOf: string, content: string) => ({
      to: 'user' as const,
      userId,
      message: { t: 'LOBBY_MESSAGE_CREATE', d: { content }, sessionId: null, lobbyOf },
    });
    bus.send(lobbyMessage('1490000000000000099', 'another game'));
    bus.send(lobbyMessage(SOCIAL_APP, 'this game'));
    bus.send({ to: 'user', userId, message: { t: 'USER_UPDATE', d: { id: userId }, sessionId: null } });
    await bus.flush();
    await client.dispatch('USER_UPDATE');
    expect(client.received.filter((p) => p.op === 0).map((p) => [p.t, p.d.content])).toEqual([
      ['READY', undefined],
      ['LOBBY_MESSAGE_CREATE', 'this game'],
      ['USER_UPDATE', undefined],
    ]);
  });

  it('lists the guilds with `guilds`; closes 4004 without a Social SDK scope or for an unknown token, and resumes only with a Bearer token', async () => {
    const { userId, token: sessionToken } = newUser();
    const { url } = await startReplica({ limits: { ...LIMITS, concurrencyWindowMs: 1 } });
    const scoped = await open(url);
    await identifyWithBearer(scoped, `bearer:${userId}:sdk.social_layer_presence,guilds`);
    const ready = await scoped.dispatch('READY');
    expect(ready.d.guilds).toEqual([
      expect.objectContaining({ id: `${userId}1`, unavailable: false }),
      expect.objectContaining({ id: `${userId}2`, unavailable: false }),
    ]);

    for (const token of [`bearer:${userId}:identify,guilds`, 'unknown']) {
      const client = await open(url);
      await identifyWithBearer(client, token);
      expect([token, (await client.closed).code]).toEqual([token, 4004]);
    }

    // The same user's session token does not resume the Bearer session.
    scoped.close(4000);
    await scoped.closed;
    const resumer = await open(url);
    await resumer.next((p) => p.op === 10);
    resumer.send({ op: 6, d: { token: sessionToken, session_id: ready.d.session_id, seq: 1 } });
    expect(await resumer.next((p) => p.op === 9)).toMatchObject({ d: false });
  });
});

describe('the Identify deadline', () => {
  it('closes a socket that neither identifies nor resumes in time (4003), heartbeating or not', async () => {
    const bot = newBot();
    const { url } = await startReplica({ identifyTimeoutMs: 2000 });
    const silent = await open(url);
    const heartbeating = await open(url);
    const beats = setInterval(() => heartbeating.send({ op: 1, d: null }), 100);
    const identified = await open(url);
    await identified.identify(bot.token);
    // A Resume of an unknown session gets Invalid Session: the deadline runs again.
    const unresumed = await open(url);
    await unresumed.next((p) => p.op === 10);
    unresumed.send({ op: 6, d: { token: bot.token, session_id: 'gone', seq: 1 } });
    await unresumed.next((p) => p.op === 9);
    try {
      for (const client of [silent, heartbeating, unresumed]) {
        expect(await client.closed).toEqual({
          code: 4003,
          reason: 'Not authenticated: no Identify within 2 s.',
        });
      }
    } finally {
      clearInterval(beats);
    }
    // The one that identified stays, well past the deadline.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    identified.send({ op: 1, d: null });
    await identified.next((p) => p.op === 11);
  });
});

describe('connections per address', () => {
  /** Opens a raw socket with headers: the HTTP status of a refused upgrade, or the open socket. */
  function upgrade(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${url}/?v=10&encoding=json`, { headers });
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', reject);
    });
  }

  /** Retries an upgrade until it succeeds (the server counts a socket out when its TCP socket closes). */
  async function upgradeEventually(url: string, headers?: Record<string, string>): Promise<WebSocket> {
    for (const deadline = Date.now() + 10_000; ;) {
      const result = await upgrade(url, headers);
      if (typeof result !== 'number') return result;
      if (Date.now() > deadline) throw new Error(`still ${result}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('refuses the upgrade past the cap with 429, and takes one again once a socket closed', async () => {
    const { url } = await startReplica({ maxConnectionsPerAddress: 3, identifyTimeoutMs: 60_000 });
    const held = [await open(url), await open(url), await open(url)];
    expect(await upgrade(url)).toBe(429);
    await expect(GatewayTestClient.connect(url)).rejects.toThrow(/429/);
    // X-Forwarded-For is nobody's word without TRUST_PROXY.
    expect(await upgrade(url, { 'x-forwarded-for': '203.0.113.9' })).toBe(429);

    held[0]!.close(1000);
    await held[0]!.closed;
    const again = await upgradeEventually(url);
    again.close(1000);
  });

  it('counts by the address the trusted proxy names', async () => {
    const { url } = await startReplica({
      maxConnectionsPerAddress: 2,
      trustProxy: compileTrustProxy('loopback'),
    });
    const a = { 'x-forwarded-for': '203.0.113.1' };
    const sockets = [await upgrade(url, a), await upgrade(url, a)];
    expect(sockets.every((s) => s instanceof WebSocket)).toBe(true);
    expect(await upgrade(url, a)).toBe(429);
    const b = await upgrade(url, { 'x-forwarded-for': '203.0.113.2' });
    expect(b).toBeInstanceOf(WebSocket);
    for (const socket of [...sockets, b]) if (socket instanceof WebSocket) socket.close(1000);
  });

  it('counts sockets the server closed out too', async () => {
    const { url } = await startReplica({ maxConnectionsPerAddress: 1, identifyTimeoutMs: 300 });
    const silent = await open(url);
    expect((await silent.closed).code).toBe(4003);
    const next = await upgradeEventually(url);
    next.close(1000);
  });
});

describe('compileTrustProxy', () => {
  it('reads TRUST_PROXY as Express reads trust proxy, and refuses what it cannot read', () => {
    expect(compileTrustProxy('false')('10.0.0.1', 0)).toBe(false);
    expect(compileTrustProxy('')('10.0.0.1', 0)).toBe(false);
    expect(compileTrustProxy('true')('203.0.113.1', 5)).toBe(true);
    const twoHops = compileTrustProxy('2');
    expect([twoHops('x', 0), twoHops('x', 1), twoHops('x', 2)]).toEqual([true, true, false]);
    const listed = compileTrustProxy('10.0.0.0/8, loopback');
    expect([listed('10.1.2.3', 0), listed('127.0.0.1', 0), listed('192.168.1.1', 0)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(() => compileTrustProxy('10.0.0.0/8,nonsense')).toThrow(/nonsense/);
  });
});
