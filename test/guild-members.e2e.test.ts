import { Client, Events, GatewayIntentBits, GatewayRateLimitError, type Guild } from 'discord.js';
import { GatewayTestClient } from './helpers/gateway-client';
import {
  createApplication,
  createDemoWorld,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';
import { expectAdmin, waitUntil } from './support/stack-steps';

/**
 * Members, roles and privileged intents end to end (issue 13, items 2 and 3): discord.js's
 * caches kept current by GUILD_MEMBER_* and GUILD_ROLE_* that the admin API and installs
 * cause; `guild.members.fetch()` through op 8 over more than one chunk and the RATE_LIMITED
 * answer to a second request within 30 s; Identify with a privileged intent the
 * application was not granted closing 4014; op 8 payloads of every wrong shape. Timeouts
 * (issue 24): discord.js's `member.timeout()` through Modify Guild Member, and what a
 * timed-out member can no longer do (send, invoke) until `member.timeout(null)`.
 */
let stack: TestStack;
let world: DemoWorld;
let client: Client<true>;
let guild: Guild;
let gatewayUrl: string;
/** Every guild member and role dispatch the discord.js bot got, as the gateway sent it. */
const dispatches: Array<{ t: string; d: any }> = [];
const raw: GatewayTestClient[] = [];

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;
/** GATEWAY_GUILD_MEMBERS_LIMITED (D:resources/application.mdx §Application Flags). */
const MEMBERS_LIMITED_FLAG = 1 << 15;
/** GATEWAY_GUILD_MEMBERS. */
const MEMBERS_FLAG = 1 << 14;
/** More than one Guild Members Chunk of 1,000. */
const CROWD = 1020;

const admin = (method: string, path: string, body: unknown, status: number): Promise<any> =>
  expectAdmin(stack, method, path, body, status);

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs?: number): Promise<T> =>
  waitUntil(stack, what, probe, timeoutMs);

/** A raw gateway connection, closed after the test file. */
async function connect(): Promise<GatewayTestClient> {
  const socket = await GatewayTestClient.connect(gatewayUrl);
  raw.push(socket);
  return socket;
}

/** Sends Identify without waiting for READY (it may never come). */
async function sendIdentify(socket: GatewayTestClient, token: string, intents: number): Promise<void> {
  await socket.next((p) => p.op === 10);
  socket.send({ op: 2, d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' } } });
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

beforeAll(async () => {
  stack = await startTestStack({ env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' } });
  world = await createDemoWorld(stack);
  gatewayUrl = `ws://127.0.0.1:${stack.ports.gateway}`;
  // The portal toggle "Server Members Intent" of an app below the verification threshold.
  await admin('PATCH', `/admin/applications/${world.application.id}`, { flags: MEMBERS_LIMITED_FLAG }, 200);
  const discord = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
    rest: { api: `${stack.apiUrl}/api` },
  });
  discord.on(Events.Raw, (packet: { t?: string; d?: any }) => {
    if (packet.t && /^GUILD_(MEMBER|ROLE)_/.test(packet.t)) dispatches.push({ t: packet.t, d: packet.d });
  });
  const ready = new Promise<Client<true>>((resolve) => discord.once(Events.ClientReady, resolve));
  await discord.login(world.application.botToken);
  client = await ready;
  guild = await waitFor('the guild', () => client.guilds.cache.get(world.guild.id));
});

afterAll(async () => {
  for (const socket of raw) socket.close(1000);
  await client?.destroy();
  await stack?.stop();
});

describe('member events', () => {
  it('keeps guild.members.cache current as the admin API adds, changes and removes a member', async () => {
    const user = await createUser(stack, { username: 'newcomer', global_name: 'New Comer' });
    await admin('PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, {}, 201);
    const member = await waitFor('the member in the cache', () => guild.members.cache.get(user.id));
    expect(member.user.username).toBe('newcomer');
    const add = dispatches.find((p) => p.t === 'GUILD_MEMBER_ADD' && p.d.user.id === user.id);
    expect(add?.d).toMatchObject({
      guild_id: world.guild.id,
      user: { id: user.id, username: 'newcomer', global_name: 'New Comer' },
      nick: null,
      roles: [],
      joined_at: expect.any(String),
      deaf: false,
      mute: false,
    });
    expect(add?.d.user).not.toHaveProperty('email');

    await admin(
      'PUT',
      `/admin/guilds/${world.guild.id}/members/${user.id}`,
      { nick: 'Nicky', roles: [world.role.id] },
      200,
    );
    await waitFor('the nick', () => guild.members.cache.get(user.id)?.nickname === 'Nicky');
    expect(guild.members.cache.get(user.id)?.roles.cache.has(world.role.id)).toBe(true);
    expect(dispatches.find((p) => p.t === 'GUILD_MEMBER_UPDATE' && p.d.user.id === user.id)?.d).toMatchObject(
      {
        guild_id: world.guild.id,
        nick: 'Nicky',
        roles: [world.role.id],
      },
    );

    // The same PUT again changes nothing: no update.
    const before = dispatches.length;
    await admin('PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, { nick: 'Nicky' }, 200);

    await admin('DELETE', `/admin/guilds/${world.guild.id}/members/${user.id}`, undefined, 204);
    await waitFor('the member gone', () => !guild.members.cache.has(user.id));
    const after = dispatches.slice(before);
    expect(after.map((p) => p.t)).toEqual(['GUILD_MEMBER_REMOVE']);
    expect(after[0]?.d).toEqual({
      guild_id: world.guild.id,
      user: expect.objectContaining({ id: user.id, username: 'newcomer' }),
    });
  });
});

describe('role events', () => {
  it('reflects roles created and updated through the admin API in guild.roles.cache', async () => {
    const role = await admin(
      'POST',
      `/admin/guilds/${world.guild.id}/roles`,
      { name: 'Moderators', permissions: '8192' },
      201,
    );
    const cached = await waitFor('the role', () => guild.roles.cache.get(role.id));
    expect(cached.name).toBe('Moderators');
    expect(cached.permissions.bitfield).toBe(8192n);
    await admin('PATCH', `/admin/guilds/${world.guild.id}/roles/${role.id}`, { name: 'Mods' }, 200);
    await waitFor('the new name', () => guild.roles.cache.get(role.id)?.name === 'Mods');
    expect(dispatches.find((p) => p.t === 'GUILD_ROLE_UPDATE' && p.d.role.id === role.id)?.d).toMatchObject({
      guild_id: world.guild.id,
      role: { id: role.id, name: 'Mods', permissions: '8192', managed: false },
    });
  });

  it('creates the bot’s managed role at install, renames it with the app, deletes it with its permissions', async () => {
    const botId = world.application.id;
    await admin(
      'POST',
      '/admin/oauth2/authorize',
      {
        client_id: botId,
        user_id: world.user.id,
        scope: 'bot applications.commands',
        guild_id: world.guild.id,
        permissions: '2048',
      },
      200,
    );
    const managed = await waitFor('the managed role', () =>
      guild.roles.cache.find((r) => r.managed && r.tags?.botId === botId),
    );
    expect(managed.name).toBe(world.application.name);
    // The bot's own GUILD_MEMBER_UPDATE gives it the role.
    await waitFor('the bot holding its role', () => guild.members.me?.roles.cache.has(managed.id));

    await admin('PATCH', `/admin/applications/${botId}`, { name: 'Renamed App' }, 200);
    await waitFor('the renamed role', () => guild.roles.cache.get(managed.id)?.name === 'Renamed App');

    await admin(
      'POST',
      '/admin/oauth2/authorize',
      {
        client_id: botId,
        user_id: world.user.id,
        scope: 'bot',
        guild_id: world.guild.id,
        permissions: '0',
      },
      200,
    );
    await waitFor('the role deleted', () => !guild.roles.cache.has(managed.id));
    expect(dispatches.find((p) => p.t === 'GUILD_ROLE_DELETE' && p.d.role_id === managed.id)?.d).toEqual({
      guild_id: world.guild.id,
      role_id: managed.id,
    });
  });
});

describe('Request Guild Members (op 8)', () => {
  it(`fetches all ${CROWD}+ members in chunks of 1,000, and rate-limits a second request within 30 s`, async () => {
    const ids = Array.from({ length: CROWD }, (_, i) => i);
    const users: string[] = [];
    await inBatches(ids, 25, async (i) => {
      const user = await createUser(stack, { username: `crowd${String(i).padStart(4, '0')}` });
      users.push(user.id);
    });
    await inBatches(users, 10, (id) =>
      admin('PUT', `/admin/guilds/${world.guild.id}/members/${id}`, {}, 201),
    );
    const chunks: Array<{ index: number; count: number; size: number }> = [];
    client.on(Events.GuildMembersChunk, (members, _guild, chunk) =>
      chunks.push({ index: chunk.index, count: chunk.count, size: members.size }),
    );

    const members = await guild.members.fetch({ time: 30_000 });
    // The crowd, the owner and the bot.
    expect(members.size).toBe(CROWD + 2);
    for (const id of [...users, world.user.id, world.application.id]) expect(members.has(id)).toBe(true);
    expect(members.get(users[0]!)?.user.username).toMatch(/^crowd\d{4}$/);
    expect(chunks).toEqual([
      { index: 0, count: 2, size: 1000 },
      { index: 1, count: 2, size: CROWD + 2 - 1000 },
    ]);

    const again = guild.members.fetch({ time: 10_000 });
    await expect(again).rejects.toBeInstanceOf(GatewayRateLimitError);
    const error = (await again.catch((e: unknown) => e)) as GatewayRateLimitError;
    expect(error.data.opcode).toBe(8);
    expect(error.data.retry_after).toBeGreaterThan(0);
    expect(error.data.retry_after).toBeLessThanOrEqual(30);
    expect(error.data.meta).toMatchObject({ guild_id: world.guild.id, nonce: expect.any(String) });
  }, 120_000);

  it('answers user_ids with not_found, a query by name prefix, and echoes the nonce', async () => {
    const socket = await connect();
    await socket.identify(world.application.botToken, { intents: GUILDS | GUILD_MEMBERS });
    const stranger = await createUser(stack, { username: 'stranger' });
    socket.send({
      op: 8,
      d: { guild_id: world.guild.id, user_ids: [world.user.id, stranger.id], nonce: 'ids' },
    });
    const byIds = await socket.next((p) => p.t === 'GUILD_MEMBERS_CHUNK' && p.d.nonce === 'ids');
    expect(byIds.d).toMatchObject({ guild_id: world.guild.id, chunk_index: 0, chunk_count: 1 });
    expect(byIds.d.members.map((m: any) => m.user.id)).toEqual([world.user.id]);
    expect(byIds.d.not_found).toEqual([stranger.id]);

    socket.send({ op: 8, d: { guild_id: world.guild.id, query: 'CROWD000', limit: 5, nonce: 'q' } });
    const byQuery = await socket.next((p) => p.t === 'GUILD_MEMBERS_CHUNK' && p.d.nonce === 'q');
    // Five of the ten whose name starts so (crowd0000-crowd0009), case-insensitively: which
    // five follows the members' ids, and the crowd was created 25 at a time.
    const names: string[] = byQuery.d.members.map((m: any) => m.user.username);
    expect(names).toHaveLength(5);
    expect(new Set(names).size).toBe(5);
    for (const name of names) expect(name).toMatch(/^crowd000\d$/);
    expect(byQuery.d).not.toHaveProperty('presences');

    // A nonce over 32 bytes is ignored; presences without GUILD_PRESENCES count as false.
    socket.send({
      op: 8,
      d: { guild_id: world.guild.id, query: 'nobody', limit: 1, presences: true, nonce: 'n'.repeat(33) },
    });
    const empty = await socket.next((p) => p.t === 'GUILD_MEMBERS_CHUNK' && p.d.nonce === undefined);
    expect(empty.d).toEqual({ guild_id: world.guild.id, members: [], chunk_index: 0, chunk_count: 1 });
  });

  it('sends nothing for a foreign guild, nor for the member list without GUILD_MEMBERS', async () => {
    const other = await createDemoWorld(stack, {
      username: 'other-owner',
      guildName: 'Other Guild',
      applicationName: 'Other App',
    });
    const socket = await connect();
    await socket.identify(world.application.botToken, { intents: GUILDS });
    socket.send({ op: 8, d: { guild_id: other.guild.id, user_ids: [other.user.id], nonce: 'foreign' } });
    socket.send({ op: 8, d: { guild_id: '9223372036854775807', query: 'a', limit: 1, nonce: 'unknown' } });
    socket.send({ op: 8, d: { guild_id: world.guild.id, query: '', limit: 10, nonce: 'no-intent' } });
    socket.send({ op: 8, d: { guild_id: world.guild.id, query: 'crowd', limit: 1, nonce: 'allowed' } });
    const allowed = await socket.next((p) => p.t === 'GUILD_MEMBERS_CHUNK' && p.d.nonce === 'allowed');
    expect(allowed.d.members).toHaveLength(1);
    // Answers keep their order: nothing came before, nothing for the others after a heartbeat.
    socket.send({ op: 1, d: null });
    const seen = socket.received.length;
    await socket.next((p) => p.op === 11, 5000, seen);
    expect(socket.received.filter((p) => p.t === 'GUILD_MEMBERS_CHUNK').map((p) => p.d.nonce)).toEqual([
      'allowed',
    ]);
  });

  it.each([
    ['no guild_id', { query: '', limit: 0 }],
    ['a list of guilds', { guild_id: ['1'], query: '', limit: 0 }],
    ['a guild id past 2^64', { guild_id: '18446744073709551616', query: '', limit: 0 }],
    ['neither query nor user_ids', { guild_id: '1' }],
    ['a query without limit', { guild_id: '1', query: '' }],
    ['a limit that is a string', { guild_id: '1', query: '', limit: '0' }],
    ['a NUL in the query', { guild_id: '1', query: 'a\u0000', limit: 1 }],
    ['user_ids that are objects', { guild_id: '1', user_ids: [{}] }],
    ['no d at all', null],
  ])('closes 4001 on %s', async (_what, d) => {
    const socket = await connect();
    await socket.identify(world.application.botToken, { intents: GUILDS | GUILD_MEMBERS });
    socket.send({ op: 8, d });
    expect(await socket.closed).toEqual({ code: 4001, reason: 'Unknown opcode.' });
  });

  it('closes 4002 on a payload that is not JSON, or too large', async () => {
    const socket = await connect();
    await socket.identify(world.application.botToken, { intents: GUILDS | GUILD_MEMBERS });
    const ids = Array.from({ length: 300 }, (_, i) => String(1_000_000_000_000_000n + BigInt(i)));
    socket.send({ op: 8, d: { guild_id: world.guild.id, user_ids: ids } });
    expect(await socket.closed).toEqual({ code: 4002, reason: 'Decode error.' });
  });
});

describe('privileged intents', () => {
  it('closes 4014 when the app was not granted GUILD_MEMBERS, and lets it identify once granted', async () => {
    const app = await createApplication(stack, { name: 'Plain App', owner_id: world.user.id });
    await installApplication(stack, {
      applicationId: app.id,
      userId: world.user.id,
      guildId: world.guild.id,
    });

    const refused = await connect();
    await sendIdentify(refused, app.bot_token, GUILDS | GUILD_MEMBERS);
    expect(await refused.closed).toEqual({ code: 4014, reason: 'Disallowed intent(s).' });

    // Intents that are not privileged need no flag.
    const plain = await connect();
    await plain.identify(app.bot_token, { intents: GUILDS });

    await admin('PATCH', `/admin/applications/${app.id}`, { flags: MEMBERS_FLAG }, 200);
    const granted = await connect();
    const ready = await granted.identify(app.bot_token, { intents: GUILDS | GUILD_MEMBERS });
    expect(ready.d.application).toMatchObject({ id: app.id });

    // GUILD_PRESENCES is another grant.
    const presences = await connect();
    await sendIdentify(presences, app.bot_token, GUILDS | (1 << 8));
    expect(await presences.closed).toEqual({ code: 4014, reason: 'Disallowed intent(s).' });
  });
});

describe('timeouts (PATCH /guilds/{id}/members/{id})', () => {
  const MODERATE_MEMBERS = 1n << 40n;
  let chat: ChatUser;
  let member: import('discord.js').GuildMember;
  let command: { id: string; name: string; version: string };
  const bot = () => `Bot ${world.application.botToken}`;

  beforeAll(async () => {
    // The bot moderates: its install grants MODERATE_MEMBERS (its managed role, above the member's none).
    await admin(
      'POST',
      '/admin/oauth2/authorize',
      {
        client_id: world.application.id,
        user_id: world.user.id,
        scope: 'bot applications.commands',
        guild_id: world.guild.id,
        permissions: String(MODERATE_MEMBERS),
      },
      200,
    );
    await waitFor('the bot holding MODERATE_MEMBERS', () =>
      guild.members.me?.roles.cache.some((role) => role.managed && role.permissions.has(MODERATE_MEMBERS)),
    );
    const user = await createUser(stack, { username: 'chatty' });
    await admin('PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, {}, 201);
    member = await waitFor('the member in the cache', () => guild.members.cache.get(user.id));
    chat = await ChatUser.open(stack, user.id);
    await chat.connect();
    const created = await api(
      stack,
      'POST',
      `/applications/${world.application.id}/guilds/${world.guild.id}/commands`,
      {
        token: bot(),
        body: { name: 'hush', description: 'Hush', type: 1 },
      },
    );
    expect(created.status).toBe(201);
    command = created.body;
  });

  afterAll(() => chat?.close());

  const send = () =>
    api(stack, 'POST', `/channels/${world.channel.id}/messages`, {
      token: chat.token,
      body: { content: 'hello' },
    });
  const invoke = () =>
    chat.invoke(
      {
        type: 2,
        application_id: world.application.id,
        guild_id: world.guild.id,
        channel_id: world.channel.id,
        data: { id: command.id, name: command.name, type: 1, version: command.version },
      },
      { wait: false },
    );

  it('member.timeout() refuses their messages (403 / 50013) and commands until member.timeout(null)', async () => {
    expect((await send()).status).toBe(200);
    expect((await invoke()).status).toBe(204);

    const asked = Date.now();
    const timedOut = await member.timeout(60_000, 'Too loud');
    expect(timedOut.communicationDisabledUntilTimestamp).toBeGreaterThanOrEqual(asked + 59_000);
    expect(timedOut.isCommunicationDisabled()).toBe(true);
    const update = await waitFor('GUILD_MEMBER_UPDATE with the timeout', () =>
      dispatches.find(
        (p) =>
          p.t === 'GUILD_MEMBER_UPDATE' &&
          p.d.user.id === member.id &&
          p.d.communication_disabled_until !== null,
      ),
    );
    expect(Date.parse(update.d.communication_disabled_until)).toBe(
      timedOut.communicationDisabledUntilTimestamp,
    );

    const refused = await send();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50013);
    const invocation = await invoke();
    expect(invocation.status).toBe(400);
    expect(invocation.body.code).toBe(50035);
    // Reading stays: VIEW_CHANNEL and READ_MESSAGE_HISTORY are kept.
    const history = await api(stack, 'GET', `/channels/${world.channel.id}/messages?limit=1`, {
      token: chat.token,
    });
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(1);

    const lifted = await member.timeout(null);
    expect(lifted.communicationDisabledUntilTimestamp).toBeNull();
    expect((await send()).status).toBe(200);
    expect((await invoke()).status).toBe(204);
  });

  it('refuses the owner, a timeout past 28 days, foreign and hostile ids, and bad bodies with Discord errors', async () => {
    const patch = (guildId: string, userId: string, body: unknown) =>
      api(stack, 'PATCH', `/guilds/${guildId}/members/${userId}`, { token: bot(), body });
    const soon = new Date(Date.now() + 60_000).toISOString();
    expect(await patch(world.guild.id, world.user.id, { communication_disabled_until: soon })).toMatchObject({
      status: 403,
      body: { code: 50013 },
    });
    const late = new Date(Date.now() + 29 * 24 * 60 * 60 * 1000).toISOString();
    expect(await patch(world.guild.id, member.id, { communication_disabled_until: late })).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { communication_disabled_until: { _errors: [expect.any(Object)] } } },
    });
    expect(await patch(world.guild.id, member.id, { communication_disabled_until: 'soon' })).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: { communication_disabled_until: { _errors: [{ code: 'DATE_TIME_TYPE_PARSE' }] } },
      },
    });
    expect(await patch(world.guild.id, member.id, { nick: 'a\u0000b' })).toMatchObject({
      status: 400,
      body: { code: 50035 },
    });
    expect(await patch(world.guild.id, member.id, { nick: 'x'.repeat(1_000_000) })).toMatchObject({
      status: 400,
      body: { code: 50035 },
    });
    expect(await patch('9223372036854775808', member.id, {})).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { guild_id: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } } },
    });
    expect(await patch(world.guild.id, '9223372036854775807', {})).toMatchObject({
      status: 404,
      body: { code: 10007 },
    });
    // A guild the bot is not in.
    const other = await admin('POST', '/admin/guilds', { name: 'Elsewhere', owner_id: member.id }, 201);
    expect(await patch(other.id, member.id, { communication_disabled_until: soon })).toMatchObject({
      status: 403,
      body: { code: 50001 },
    });
    // A user's session is no credential here: 401.
    const asUser = await api(stack, 'PATCH', `/guilds/${world.guild.id}/members/${member.id}`, {
      token: chat.token,
      body: {},
    });
    expect(asUser).toMatchObject({ status: 401, body: { code: 0 } });
    expect(guild.members.cache.get(member.id)?.isCommunicationDisabled()).toBe(false);
  });
});
