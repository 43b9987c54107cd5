import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import {
  createEvent,
  publishedSubject,
  startEventConsumer,
  type EventName,
  type EventPayload,
  type RunningConsumer,
} from '@acs/events';
import { createLogger, serviceDatabaseUrl } from '@acs/service-kit';
import {
  createTestDatabase,
  findTestServers,
  GatewayTestClient,
  type Received,
  type TestDatabase,
} from '@acs/testing';
import type { OAuthClient } from '../../src/clients/oauth-client';
import type { PermissionsClient } from '../../src/clients/permissions-client';
import { DB_SCHEMA } from '../../src/config';
import { compileTrustProxy } from '../../src/delivery/gateway/compile-trust-proxy';
import { DispatchBus } from '../../src/delivery/gateway/dispatch-bus';
import { startGatewayServer, type GatewayServer } from '../../src/delivery/gateway/gateway-server';
import { PresenceAnnouncer } from '../../src/delivery/gateway/presence-announcer';
import { SessionRegistry } from '../../src/delivery/gateway/session-registry';
import { DISPATCHED_EVENTS } from '../../src/domain/plan-event';
import { shardOf } from '../../src/domain/shard-of';
import { deliverEvents } from '../../src/events/deliver-events';
import { DeliveryStore } from '../../src/store/delivery-store';
import { MemberRequestStore } from '../../src/store/member-request-store';
import { IdentifyStore } from '../../src/store/identify-store';
import { PresenceStore } from '../../src/store/presence-store';

/**
 * The interactions service's events, published on a stream of this file's own, consumed
 * by one replica's consumer (`deliverEvents`, as start-service wires it) and dispatched to
 * sessions on two replicas, each with its own NATS connection, over the shared database.
 * oauth and permissions are the network edge: `bot:<id>` is application <id>'s bot token,
 * `session:<id>` user <id>'s session token, and `viewers` says who may view a channel.
 */

const APP = '1900000000000000001';
/** Users: U and W may view CHANNEL, V may not (a member of the guild without VIEW_CHANNEL). */
const U = '1900000000000000011';
const V = '1900000000000000012';
const W = '1900000000000000013';
const CHANNEL = '1900000000000000020';
const DM_CHANNEL = '1900000000000000021';
/** Two guilds, one on each of two shards. */
const GUILD_ON_0 = String(4n << 22n);
const GUILD_ON_1 = String(5n << 22n);
const viewers = new Map<string, Set<string>>([[CHANNEL, new Set([U, W])]]);
/** How long the edge takes to decide VIEW_CHANNEL: long, so that later dispatches overtake it unless kept in order. */
const VIEW_DECISION_MS = 150;

const oauth = {
  resolveBotToken: async (token: string) => (token.startsWith('bot:') ? token.slice(4) : undefined),
  resolveUserSession: async (token: string) => (token.startsWith('session:') ? token.slice(8) : undefined),
  currentUser: async (userId: string) => ({ id: userId, username: `user${userId.slice(-2)}` }),
  forgetSettings: () => undefined,
  settings: async (applicationId: string) => ({
    applicationId,
    flags: 0,
    botUser: { id: applicationId, username: 'bot', discriminator: '0000', bot: true },
  }),
  profilePrivacy: async () => 'everyone',
  botGuilds: async () => [],
} as unknown as OAuthClient;
const permissions: PermissionsClient = {
  guild: async () => undefined,
  memberGuilds: async () => [],
  canViewChannel: async (userId, _guildId, channelId) => {
    await new Promise((resolve) => setTimeout(resolve, VIEW_DECISION_MS));
    return viewers.get(channelId)?.has(userId) ?? false;
  },
  memberGuildCounts: async () => [],
  guildBots: async () => new Map(),
  updateVoiceState: async () => false,
  channelInfo: async () => [],
  guildMembers: async () => ({ members: [], notFound: [] }),
  holdersOf: async () => [],
};
const logger = createLogger('dispatcher-test', 'silent');

let database: TestDatabase;
let pool: Pool;
let natsUrl: string;
const connections: NatsConnection[] = [];
const events = {
  stream: `INTERACTIONS_T${randomBytes(4).toString('hex')}`,
  subjectPrefix: `it${randomBytes(4).toString('hex')}`,
};
let consumer: RunningConsumer;
/** The gateway URL of each replica. */
const replicas: string[] = [];
const registries: SessionRegistry[] = [];
const servers: GatewayServer[] = [];
const clients: GatewayTestClient[] = [];
let nextInteraction = 1900000000000001000n;

/** Starts a replica's gateway with its own NATS connection; the first one also consumes the events. */
async function startReplica(): Promise<void> {
  const nats = await connect({ servers: natsUrl });
  connections.push(nats);
  const bus = new DispatchBus(nats, events.subjectPrefix);
  const registry = new SessionRegistry(bus, {
    resumeWindowMs: 60_000,
    replayBufferSize: 100,
    canViewChannel: permissions.canViewChannel,
    guildView: (guildId, viewerId) => permissions.guild(guildId, viewerId),
    logger,
  });
  registries.push(registry);
  // Sessions of one user follow each other within milliseconds here; the limits have their tests.
  const identifies = new IdentifyStore(pool, {
    total: 1000,
    windowMs: 60_000,
    maxConcurrency: 1,
    concurrencyWindowMs: 1,
  });
  const server = await startGatewayServer(
    {
      registry,
      oauth,
      permissions,
      identifies,
      memberRequests: new MemberRequestStore(pool, 30_000),
      privilegedIntentsGuildThreshold: 100,
      logger,
      heartbeatIntervalMs: 60_000,
      identifyTimeoutMs: 60_000,
      publicUrl: 'ws://127.0.0.1:0',
      presences: new PresenceAnnouncer({
        store: new PresenceStore(pool),
        oauth,
        permissions,
        bus,
        logger: createLogger('dispatcher-test', 'silent'),
      }),
    },
    { host: '127.0.0.1', port: 0, maxConnectionsPerAddress: 0, trustProxy: compileTrustProxy('false') },
  );
  servers.push(server);
  replicas.push(`ws://127.0.0.1:${server.port}`);
  if (replicas.length === 1) {
    consumer = startEventConsumer({
      nats,
      events,
      consumer: { name: 'dispatcher' },
      names: DISPATCHED_EVENTS,
      logger,
      handleBatch: deliverEvents({
        store: new DeliveryStore(pool),
        oauth,
        permissions,
        bus,
        onDeliveriesRecorded: () => undefined,
      }),
    });
    await consumer.ready;
  }
}

beforeAll(async () => {
  database = await createTestDatabase(['dispatcher']);
  pool = new Pool({ connectionString: serviceDatabaseUrl(database.url, DB_SCHEMA), max: 10 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  natsUrl = (await findTestServers()).natsUrl;
  await startReplica();
  await startReplica();
}, 60_000);

afterEach(() => {
  for (const client of clients.splice(0)) client.close(1000);
});

afterAll(async () => {
  await consumer?.stop();
  for (const registry of registries) registry.closeAll();
  await Promise.all(servers.map((server) => server.close()));
  const jsm = await connections[0]?.jetstreamManager();
  await jsm?.streams.delete(events.stream).catch(() => undefined);
  for (const nats of connections) await nats.close();
  await pool?.end();
  await database?.drop();
});

/** A session on replica `replica`: a user's (`session:<id>`) or a bot's, with its intents and shard. */
async function session(
  replica: number,
  token: string,
  identify: { intents?: number; shard?: [number, number] } = {},
): Promise<{ client: GatewayTestClient; sessionId: string }> {
  const client = await GatewayTestClient.connect(replicas[replica]!);
  clients.push(client);
  const ready = await client.identify(token, { intents: identify.intents ?? 0, shard: identify.shard });
  return { client, sessionId: ready.d.session_id as string };
}

/** Publishes events as the interactions service's relay does: envelope, subject, message id. */
async function publish<N extends EventName>(name: N, data: EventPayload<N>): Promise<void> {
  const row = createEvent(name, data);
  await connections[0]!
    .jetstream()
    .publish(publishedSubject(row.subject, events.subjectPrefix), JSON.stringify(row.payload), {
      msgID: row.id,
    });
}

/** The audience fields of an interaction of user `userId`. */
function interaction(
  userId: string,
  fields: { sessionId?: string | null; nonce?: string | null; guildId?: string | null } = {},
) {
  nextInteraction += 1n;
  return {
    interaction_id: String(nextInteraction),
    application_id: APP,
    user_id: userId,
    session_id: fields.sessionId ?? null,
    nonce: fields.nonce ?? null,
    guild_id: fields.guildId === undefined ? GUILD_ON_1 : fields.guildId,
    channel_id: CHANNEL,
  };
}

/** A last event for a user's every session: once it came, everything published before it did. */
async function userMarker(userId: string): Promise<string> {
  const marker = interaction(userId);
  await publish('interactions.interaction.failed', { ...marker, reason_code: 1 });
  return marker.interaction_id;
}

/** A last event for the bot's sessions of the guild's shard, whatever their intents. */
async function botMarker(guildId: string): Promise<string> {
  const marker = interaction(U, { guildId });
  await publish('interactions.interaction.created', {
    ...marker,
    type: 2,
    bot_payload: { id: marker.interaction_id, marker: true },
  });
  return marker.interaction_id;
}

/** The dispatches a client received after READY up to the one matching `last`, once it came. */
async function dispatchesUntil(
  client: GatewayTestClient,
  last: (p: Received) => boolean,
): Promise<Received[]> {
  const end = await client.next((p) => p.op === 0 && last(p), 20_000);
  const dispatches = client.received.filter((p) => p.op === 0);
  // Numbered in order, with nothing in between.
  expect(dispatches.map((p) => p.s)).toEqual(dispatches.map((_, i) => i + 1));
  return dispatches.slice(1, dispatches.indexOf(end) + 1);
}

const failureOf = (id: string) => (p: Received) => p.t === 'INTERACTION_FAILURE' && p.d.id === id;
const botInteraction = (id: string) => (p: Received) => p.t === 'INTERACTION_CREATE' && p.d.id === id;

describe("the invoking user's events", () => {
  it('reach the session the invocation named, or every session of the user, on any replica; no one else', async () => {
    const u1 = await session(0, `session:${U}`);
    const u2 = await session(1, `session:${U}`);
    const v = await session(1, `session:${V}`);

    const named = interaction(U, { sessionId: u1.sessionId, nonce: '1234' });
    await publish('interactions.interaction.created', { ...named, type: 2, bot_payload: null });
    await publish('interactions.interaction.succeeded', named);
    const everywhere = interaction(U, { nonce: null });
    const choices = [{ name: 'One', value: 'one' }];
    await publish('interactions.autocomplete.answered', { ...everywhere, choices });
    await publish('interactions.interaction.failed', { ...everywhere, reason_code: 2 });
    const vLast = await userMarker(V);

    expect(await dispatchesUntil(u1.client, failureOf(everywhere.interaction_id))).toEqual([
      expect.objectContaining({ t: 'INTERACTION_CREATE', d: { id: named.interaction_id, nonce: '1234' } }),
      expect.objectContaining({ t: 'INTERACTION_SUCCESS', d: { id: named.interaction_id, nonce: '1234' } }),
      expect.objectContaining({
        t: 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
        d: { choices, nonce: null },
      }),
      expect.objectContaining({
        t: 'INTERACTION_FAILURE',
        d: { id: everywhere.interaction_id, nonce: null, reason_code: 2 },
      }),
    ]);
    expect((await dispatchesUntil(u2.client, failureOf(everywhere.interaction_id))).map((p) => p.t)).toEqual([
      'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
      'INTERACTION_FAILURE',
    ]);
    expect((await dispatchesUntil(v.client, failureOf(vLast))).map((p) => p.d.id)).toEqual([vLast]);
  });
});

describe("the bot's INTERACTION_CREATE", () => {
  it("carries the full interaction to the guild's shard (a DM's to shard 0), with no intent; none without bot_payload", async () => {
    expect([shardOf(GUILD_ON_0, 2), shardOf(GUILD_ON_1, 2)]).toEqual([0, 1]);
    const shard0 = await session(1, `bot:${APP}`, { shard: [0, 2] });
    const shard1 = await session(0, `bot:${APP}`, { shard: [1, 2] });

    const inGuild = interaction(U, { guildId: GUILD_ON_1, nonce: '5' });
    const payload = { id: inGuild.interaction_id, application_id: APP, token: 'aW50ZXJhY3Rpb24', type: 2 };
    await publish('interactions.interaction.created', { ...inGuild, type: 2, bot_payload: payload });
    const overHttp = interaction(U, { guildId: GUILD_ON_1 });
    await publish('interactions.interaction.created', { ...overHttp, type: 2, bot_payload: null });
    const inDm = interaction(U, { guildId: null });
    await publish('interactions.interaction.created', {
      ...inDm,
      type: 4,
      bot_payload: { id: inDm.interaction_id },
    });
    const last0 = await botMarker(GUILD_ON_0);
    const last1 = await botMarker(GUILD_ON_1);

    expect(await dispatchesUntil(shard1.client, botInteraction(last1))).toEqual([
      expect.objectContaining({ t: 'INTERACTION_CREATE', d: payload }),
      expect.objectContaining({ t: 'INTERACTION_CREATE', d: { id: last1, marker: true } }),
    ]);
    expect((await dispatchesUntil(shard0.client, botInteraction(last0))).map((p) => p.d.id)).toEqual([
      inDm.interaction_id,
      last0,
    ]);
  });
});

describe('MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE', () => {
  it('reach the users who may view the channel or are the DM recipients, ephemeral ones their user alone, and the bot with the intent', async () => {
    const u = await session(0, `session:${U}`);
    const w = await session(1, `session:${W}`);
    const v = await session(1, `session:${V}`);
    const guildBot = await session(0, `bot:${APP}`, { intents: 1 << 9 });
    const dmBot = await session(1, `bot:${APP}`, { intents: 1 << 12 });
    const blindBot = await session(1, `bot:${APP}`, { intents: 1 });

    const inGuild = {
      application_id: APP,
      channel_id: CHANNEL,
      guild_id: GUILD_ON_1,
      ephemeral_user_id: null,
      recipient_ids: [],
    };
    const message = { id: '1900000000000000100', channel_id: CHANNEL, content: 'pong', flags: 0, type: 20 };
    await publish('interactions.message.created', { ...inGuild, message });
    await publish('interactions.message.updated', { ...inGuild, message: { ...message, content: 'pong!' } });
    // Overtakes nothing: U's own dispatches wait for the channel's decisions before them.
    const ephemeral = {
      id: '1900000000000000101',
      channel_id: CHANNEL,
      content: 'psst',
      flags: 64,
      type: 20,
    };
    await publish('interactions.message.created', { ...inGuild, ephemeral_user_id: U, message: ephemeral });
    await publish('interactions.message.deleted', { ...inGuild, message_id: message.id });
    const inDm = {
      application_id: APP,
      channel_id: DM_CHANNEL,
      guild_id: null,
      ephemeral_user_id: null,
      recipient_ids: [U, APP],
    };
    const dmMessage = {
      id: '1900000000000000102',
      channel_id: DM_CHANNEL,
      content: 'hi',
      flags: 0,
      type: 20,
    };
    await publish('interactions.message.created', { ...inDm, message: dmMessage });
    const markers = {
      u: await userMarker(U),
      w: await userMarker(W),
      v: await userMarker(V),
      bot: await botMarker(GUILD_ON_1),
    };

    const inGuildD = { ...message, guild_id: GUILD_ON_1 };
    const guildMessages = [
      ['MESSAGE_CREATE', inGuildD],
      ['MESSAGE_UPDATE', { ...inGuildD, content: 'pong!' }],
    ];
    const deleted = ['MESSAGE_DELETE', { id: message.id, channel_id: CHANNEL, guild_id: GUILD_ON_1 }];
    const tAndD = (dispatches: Received[]) => dispatches.map((p) => [p.t, p.d]);

    expect(tAndD(await dispatchesUntil(u.client, failureOf(markers.u)))).toEqual([
      ...guildMessages,
      ['MESSAGE_CREATE', { ...ephemeral, guild_id: GUILD_ON_1 }],
      deleted,
      ['MESSAGE_CREATE', dmMessage],
      ['INTERACTION_FAILURE', expect.objectContaining({ id: markers.u })],
    ]);
    expect(tAndD(await dispatchesUntil(w.client, failureOf(markers.w)))).toEqual([
      ...guildMessages,
      deleted,
      ['INTERACTION_FAILURE', expect.objectContaining({ id: markers.w })],
    ]);
    expect((await dispatchesUntil(v.client, failureOf(markers.v))).map((p) => p.d.id)).toEqual([markers.v]);

    expect(tAndD(await dispatchesUntil(guildBot.client, botInteraction(markers.bot)))).toEqual([
      ...guildMessages,
      deleted,
      ['INTERACTION_CREATE', { id: markers.bot, marker: true }],
    ]);
    expect(tAndD(await dispatchesUntil(dmBot.client, botInteraction(markers.bot)))).toEqual([
      ['MESSAGE_CREATE', dmMessage],
      ['INTERACTION_CREATE', { id: markers.bot, marker: true }],
    ]);
    expect((await dispatchesUntil(blindBot.client, botInteraction(markers.bot))).map((p) => p.t)).toEqual([
      'INTERACTION_CREATE',
    ]);
  });
});
