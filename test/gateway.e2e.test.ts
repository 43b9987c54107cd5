import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import {
  createApplication,
  createGuild,
  createDemoWorld,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { GatewayTestClient } from './helpers/gateway-client';
import { expectSchema, openApiValidator } from './helpers/openapi-validator';

/**
 * Short, so that the 4009 test is quick; long enough that a test process starved of CPU
 * by a busy machine still heartbeats in time (the dispatcher allows 1.5 intervals).
 */
const HEARTBEAT_INTERVAL_MS = 5000;

let stack: TestStack;
let world: DemoWorld;
let gatewayUrl: string;
const clients: GatewayTestClient[] = [];

async function connect(query?: string): Promise<GatewayTestClient> {
  const client = await GatewayTestClient.connect(gatewayUrl, query);
  clients.push(client);
  return client;
}

/**
 * A bot of its own, in no guild yet: the guilds and sequence numbers its sessions see
 * depend on the test alone (no install event of another test still on its way).
 */
async function newBot(name: string): Promise<{ id: string; token: string; ownerId: string }> {
  const owner = await createUser(stack, { username: `${name.toLowerCase()}-owner` });
  const app = await createApplication(stack, { name, owner_id: owner.id });
  return { id: app.id, token: app.bot_token, ownerId: owner.id };
}

async function api(path: string, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    headers: token ? { authorization: `Bot ${token}` } : {},
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS),
      // These tests identify the same bot every few hundred milliseconds; the limits on
      // Identify have their own tests (gateway-limits.e2e.test.ts).
      IDENTIFY_CONCURRENCY_WINDOW_MS: '1',
    },
  });
  world = await createDemoWorld(stack);
  gatewayUrl = (await api('/gateway/bot', world.application.botToken)).body.url;
  // Compiling a schema of Discord's OpenAPI document blocks this process for a while:
  // done now, not while a session waits for its next heartbeat.
  for (const schema of ['GuildChannelResponse', 'GuildMemberResponse', 'GuildRoleResponse'])
    openApiValidator(schema);
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close(1000);
});

afterAll(async () => {
  await stack?.stop();
});

describe('GET /gateway and /gateway/bot', () => {
  it('give the WebSocket URL, shards and the session start limit', async () => {
    const open = await api('/gateway');
    expect(open).toEqual({ status: 200, body: { url: `ws://127.0.0.1:${stack.ports.gateway}` } });
    const bot = await api('/gateway/bot', world.application.botToken);
    expect(bot.status).toBe(200);
    expect(bot.body).toEqual({
      url: open.body.url,
      shards: 1,
      session_start_limit: {
        total: 1000,
        remaining: expect.any(Number),
        reset_after: expect.any(Number),
        max_concurrency: 1,
      },
    });
    expect((await api('/gateway/bot')).status).toBe(401);

    // An identify uses one start, which comes back 24 hours after it was used.
    const before = bot.body.session_start_limit.remaining as number;
    const client = await connect();
    await client.identify(world.application.botToken);
    const after = (await api('/gateway/bot', world.application.botToken)).body.session_start_limit;
    expect(after.remaining).toBe(before - 1);
    expect(after.reset_after).toBeGreaterThan(86_000_000);
    expect(after.reset_after).toBeLessThanOrEqual(86_400_000);
  });

  it('/gateway/bot: 403 20002 to a valid Bearer token (401 would make @discordjs/rest drop it), 401 to a bad one', async () => {
    const token = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: world.application.id,
        client_secret: world.application.clientSecret,
      }).toString(),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const withAuthorization = async (authorization: string) => {
      const response = await fetch(`${stack.apiUrl}/api/v10/gateway/bot`, { headers: { authorization } });
      return { status: response.status, body: await response.json() };
    };
    expect(await withAuthorization(`Bearer ${access_token}`)).toEqual({
      status: 403,
      body: { code: 20002, message: 'Only bots can use this endpoint' },
    });
    expect((await withAuthorization(`Bearer ${access_token}x`)).status).toBe(401);
    // Any spelling of the prefix is the same credential; an inherited property name is no prefix.
    expect((await withAuthorization(`bOT  ${world.application.botToken}`)).status).toBe(200);
    for (const prefix of ['constructor', '__proto__', 'toString']) {
      expect((await withAuthorization(`${prefix} ${world.application.botToken}`)).status).toBe(401);
    }
  });
});

describe('the gateway protocol', () => {
  it('says Hello, then closes 4003 on a payload before Identify', async () => {
    const client = await connect();
    const hello = await client.next((p) => p.op === 10);
    expect(hello).toEqual({ op: 10, d: { heartbeat_interval: HEARTBEAT_INTERVAL_MS }, s: null, t: null });
    client.send({ op: 3, d: { status: 'online', since: null, activities: [], afk: false } });
    expect((await client.closed).code).toBe(4003);
  });

  it('closes 4004 on a bad token, 4002 on bad JSON, 4012 on another version', async () => {
    const bad = await connect();
    await bad.next((p) => p.op === 10);
    bad.send({ op: 2, d: { token: 'MTIz.bad.token', intents: 0, properties: {} } });
    expect((await bad.closed).code).toBe(4004);
    const garbage = await connect();
    garbage.send('{not json');
    expect((await garbage.closed).code).toBe(4002);
    const v9 = await connect('v=9&encoding=json');
    expect((await v9.closed).code).toBe(4012);
  });

  it('identifies: READY, a GUILD_CREATE per guild, heartbeats acknowledged, a second Identify closes 4005', async () => {
    // A world of its own: READY lists exactly its one guild, whatever other tests installed.
    const own = await createDemoWorld(stack);
    const client = await connect();
    const ready = await client.identify(own.application.botToken);
    expect(ready.s).toBe(1);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: own.application.id, bot: true },
      guilds: [{ id: own.guild.id, unavailable: true }],
      session_id: expect.any(String),
      // Behind the entry point of replicas, each dispatcher's own: a Resume must reach it.
      resume_gateway_url:
        stack.replicas > 1 ? expect.stringMatching(`^${gatewayUrl}/replica/\\d+$`) : gatewayUrl,
      application: { id: own.application.id, flags: expect.any(Number) },
    });
    const guild = await client.dispatch('GUILD_CREATE');
    expect(guild.s).toBe(2);
    expect(guild.d).toMatchObject({
      id: own.guild.id,
      name: expect.any(String),
      unavailable: false,
      roles: expect.any(Array),
      // The guild's whole count (its owner and the bot), though without GUILD_PRESENCES
      // only the bot is listed.
      member_count: 2,
      threads: [],
    });
    // The guild's channels (with guild_id) and the bot's own member, as discord.js needs them.
    expect(guild.d.channels).toEqual([
      {
        id: own.channel.id,
        type: 0,
        guild_id: own.guild.id,
        name: own.channel.name,
        parent_id: null,
        position: 0,
        permission_overwrites: [],
        flags: 0,
        nsfw: false,
        topic: null,
        last_message_id: null,
        rate_limit_per_user: 0,
      },
    ]);
    for (const channel of guild.d.channels) expectSchema('GuildChannelResponse', channel);
    expect(guild.d.members).toEqual([
      expect.objectContaining({ user: ready.d.user, roles: [], joined_at: guild.d.joined_at, nick: null }),
    ]);
    expectSchema('GuildMemberResponse', guild.d.members[0]);

    const seen = client.received.length;
    client.send({ op: 1, d: 2 });
    expect(await client.next((p) => p.op === 11, undefined, seen)).toEqual({
      op: 11,
      d: null,
      s: null,
      t: null,
    });

    client.send({ op: 2, d: { token: own.application.botToken, intents: 0, properties: {} } });
    expect((await client.closed).code).toBe(4005);
  });

  it('dispatches GUILD_CREATE when the bot is added to a guild, and APPLICATION_COMMAND_PERMISSIONS_UPDATE', async () => {
    const bot = await newBot('Joiner');
    const client = await connect();
    const ready = await client.identify(bot.token);
    expect(ready.d.guilds).toEqual([]);
    const guild = await createGuild(stack, { name: 'Second Guild', owner_id: bot.ownerId });
    const created = await stack.admin('POST', `/admin/guilds/${guild.id}/channels`, {
      name: 'lobby',
      type: 2,
    });
    expect(created.status).toBe(201);
    const channel = created.body as { id: string };
    await installApplication(stack, { applicationId: bot.id, userId: bot.ownerId, guildId: guild.id });
    const joined = await client.next((p) => p.t === 'GUILD_CREATE' && p.d.id === guild.id);
    expect(joined.s).toBe(2);
    // A guild just joined has no `unavailable` (discord.py's on_guild_join needs it absent);
    // the GUILD_CREATEs that fill in READY's guilds say `unavailable: false`.
    expect(joined.d).not.toHaveProperty('unavailable');
    // The same shape as on Identify: the guild's channels and the bot's member.
    expect(joined.d.channels).toEqual([
      expect.objectContaining({ id: channel.id, name: 'lobby', type: 2, guild_id: guild.id }),
    ]);
    expect(joined.d.members).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ id: bot.id, bot: true }) }),
    ]);
    expectSchema('GuildMemberResponse', joined.d.members[0]);

    // The permissions service's event, written to its outbox as it does it.
    const permissions = {
      id: bot.id,
      application_id: bot.id,
      guild_id: guild.id,
      permissions: [{ id: guild.id, type: 1, permission: false }],
    };
    await writeOutboxEvent('permissions', 'application_command_permissions.updated', permissions);
    const update = await client.dispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    expect(update.d).toEqual(permissions);
    expect(update.s).toBe(3);
  });

  it('resumes: the dispatches missed while away, in order, then RESUMED', async () => {
    const bot = await newBot('Resumer');
    const first = await connect();
    const ready = await first.identify(bot.token);
    // A second session of the bot on the same dispatcher (its resume_gateway_url leads there
    // when replicated) is handed each dispatch in the same turn as the detached one (one
    // subscription per bot, every session in turn): once it has the new guild, the
    // detached session has buffered it too.
    const observer = await GatewayTestClient.connect(ready.d.resume_gateway_url);
    clients.push(observer);
    await observer.identify(bot.token);
    const sessionId = ready.d.session_id as string;
    const lastSeq = ready.s as number;
    first.close(4000);
    await first.closed;

    const guild = await createGuild(stack, { name: 'While Away', owner_id: bot.ownerId });
    await installApplication(stack, { applicationId: bot.id, userId: bot.ownerId, guildId: guild.id });
    await observer.next((p) => p.t === 'GUILD_CREATE' && p.d.id === guild.id);

    // Where Discord says a Resume goes (the session's dispatcher, when replicated).
    const second = await GatewayTestClient.connect(ready.d.resume_gateway_url);
    clients.push(second);
    await second.next((p) => p.op === 10);
    second.send({ op: 6, d: { token: bot.token, session_id: sessionId, seq: lastSeq } });
    const resumed = await second.dispatch('RESUMED');
    const dispatches = second.received.filter((p) => p.op === 0);
    expect(dispatches.map((p) => p.t)).toEqual(['GUILD_CREATE', 'RESUMED']);
    expect(dispatches[0]!.d.id).toBe(guild.id);
    expect(dispatches.map((p) => p.s)).toEqual([lastSeq + 1, lastSeq + 2]);
    expect(resumed.s).toBe(lastSeq + 2);

    // A session that is gone: Invalid Session, not resumable; Identify works on the same socket.
    const third = await connect();
    await third.next((p) => p.op === 10);
    third.send({ op: 6, d: { token: bot.token, session_id: 'no-such-session', seq: 1 } });
    expect(await third.next((p) => p.op === 9)).toMatchObject({ op: 9, d: false });
    third.send({ op: 2, d: { token: bot.token, intents: 0, properties: {} } });
    await third.dispatch('READY');
  });

  it('closes a session that stops heartbeating (4009) and one that sends too much (4008)', async () => {
    const silent = await connect();
    await silent.identify(world.application.botToken, {}, { heartbeat: false });
    const started = Date.now();
    expect((await silent.closed).code).toBe(4009);
    // Soon after the missed heartbeat, with room for a busy machine's late timers.
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_INTERVAL_MS * 2 + 5000);

    const chatty = await connect();
    await chatty.identify(world.application.botToken);
    for (let i = 0; i < 125; i++) chatty.send({ op: 1, d: null });
    expect((await chatty.closed).code).toBe(4008);
  });

  it('speaks zlib-stream when asked', async () => {
    const { inflateSync, constants } = await import('node:zlib');
    const WebSocket = (await import('ws')).default;
    const socket = new WebSocket(`${gatewayUrl}/?v=10&encoding=json&compress=zlib-stream`);
    const chunks: Buffer[] = [];
    const hello = await new Promise<any>((resolve, reject) => {
      socket.on('message', (data: Buffer) => {
        chunks.push(data);
        try {
          resolve(
            JSON.parse(
              inflateSync(Buffer.concat(chunks), { finishFlush: constants.Z_SYNC_FLUSH }).toString(),
            ),
          );
        } catch (error) {
          reject(error);
        }
      });
    });
    socket.close(1000);
    expect(hello.op).toBe(10);
  });
});

/** Writes an event to a service's outbox as that service does (relayed with the stack's prefix). */
async function writeOutboxEvent(schema: string, type: string, data: unknown): Promise<void> {
  const pool = new Pool({ connectionString: stack.databaseUrl });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  try {
    const id = randomUUID();
    await pool.query('BEGIN');
    await pool.query(`INSERT INTO "${schema}"."outbox" (id, subject, payload) VALUES ($1, $2, $3)`, [
      id,
      `acs.${schema}.${type}`,
      { id, type, occurred_at: new Date().toISOString(), data },
    ]);
    await pool.query(`SELECT pg_notify('${schema}_outbox', '')`);
    await pool.query('COMMIT');
  } finally {
    await pool.end();
  }
}

describe("a bot's managed role", () => {
  it('comes with the bot in GUILD_CREATE, stays its own, and goes when the bot is removed', async () => {
    const app = await createApplication(stack, { name: 'Role Bot', owner_id: world.user.id });
    const guild = await createGuild(stack, { name: 'Managed Guild', owner_id: world.user.id });
    const client = await connect();
    await client.identify(app.bot_token);
    const manageRoles = String(1 << 28);
    const authorized = await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: app.id,
      user_id: world.user.id,
      guild_id: guild.id,
      scope: 'bot',
      permissions: manageRoles,
    });
    expect(authorized.status).toBe(200);

    const joined = await client.next((p) => p.t === 'GUILD_CREATE' && p.d.id === guild.id);
    const managed = (joined.d.roles as { id: string; tags?: { bot_id?: string } }[]).filter(
      (role) => role.tags?.bot_id === app.id,
    );
    expect(managed).toEqual([
      expect.objectContaining({ name: 'Role Bot', permissions: manageRoles, position: 1, managed: true }),
    ]);
    expectSchema('GuildRoleResponse', managed[0]);
    const roleId = managed[0]!.id;
    expect(joined.d.members).toEqual([expect.objectContaining({ roles: [roleId] })]);

    const assignTo = (userId: string) =>
      stack.admin('PUT', `/admin/guilds/${guild.id}/members/${userId}`, { roles: [roleId] });
    const refused = await assignTo(world.user.id);
    expect([refused.status, refused.body.errors?.roles?.['0']?._errors?.[0]?.code]).toEqual([
      400,
      'ROLE_MANAGED',
    ]);

    expect((await stack.admin('DELETE', `/admin/guilds/${guild.id}/members/${app.id}`)).status).toBe(204);
    await client.next((p) => p.t === 'GUILD_DELETE' && p.d.id === guild.id);
    // The role is gone (unknown now), and so is the member.
    const gone = await assignTo(world.user.id);
    expect([gone.status, gone.body.errors?.roles?.['0']?._errors?.[0]?.code]).toEqual([400, 'UNKNOWN_ROLE']);
    const again = await stack.admin('DELETE', `/admin/guilds/${guild.id}/members/${app.id}`);
    expect([again.status, again.body.code]).toEqual([404, 10007]);
  });
});
