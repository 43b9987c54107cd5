import { ActivityType, Client, Events, GatewayIntentBits, type Guild, type Presence } from 'discord.js';
import { GatewayTestClient, type Received } from './helpers/gateway-client';
import {
  createApplication,
  createGuild,
  createUser,
  installApplication,
  startTestStack,
  type TestStack,
} from './support';
import { api } from './support/chat-user';
import { expectAdmin } from './support/stack-steps';

/**
 * Presence and voice (issue 13 items 4 and 5) on the whole stack, with discord.js: a user's
 * chat-client session sets its presence with op 3 and a bot with GUILD_PRESENCES sees
 * `presenceUpdate` (a custom status hidden as the user's profile privacy asks, offline at
 * the end of the last session); a bot joins a voice channel with op 4 (VOICE_STATE_UPDATE,
 * `guild.members.me.voice`), sets the channel's status under the permission rules, and
 * reads it back with op 43 (CHANNEL_INFO); hostile input on the route and the opcodes.
 */

const VIEW_CHANNEL = 1n << 10n;
const MANAGE_CHANNELS = 1n << 4n;
const CONNECT = 1n << 20n;
const SET_VOICE_CHANNEL_STATUS = 1n << 48n;
/** The application flag GATEWAY_PRESENCE (the portal's Presence Intent toggle). */
const GATEWAY_PRESENCE = 1 << 12;
const GUILD_PRESENCES = 1 << 8;

let stack: TestStack;
let owner: { id: string };
let alice: { id: string };
let guild: { id: string };
let talk: string;
let locked: string;
let text: string;
let presenceApp: { id: string; bot_token: string };
let managerApp: { id: string; bot_token: string };
let discord: Client<true>;
/** Every dispatch discord.js received, in order. */
const raw: Array<{ t: string; d: any }> = [];
const presences: Presence[] = [];
const clients: GatewayTestClient[] = [];

/** Waits until `check` finds something, polling (discord.js caches and events settle asynchronously). */
async function eventually<T>(check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The first dispatch `t` after index `from` matching `match`. */
function rawAfter(from: number, t: string, match: (d: any) => boolean = () => true): Promise<any> {
  return eventually(() => raw.slice(from).find((p) => p.t === t && match(p.d))?.d);
}

const admin = (method: string, path: string, body: unknown, status: number): Promise<any> =>
  expectAdmin(stack, method, path, body, status);

async function channel(guildId: string, body: Record<string, unknown>): Promise<string> {
  return (await admin('POST', `/admin/guilds/${guildId}/channels`, body, 201)).id as string;
}

/** A chat-client session of the user, identified as the official client does. */
async function userSession(userId: string): Promise<GatewayTestClient> {
  const token = (await admin('POST', `/admin/users/${userId}/sessions`, {}, 201)).token as string;
  const client = await GatewayTestClient.connect(gatewayUrl);
  clients.push(client);
  await client.identify(token, { intents: undefined, capabilities: 16381 });
  return client;
}

/** A raw bot session (the manager app's) with the given intents. */
async function botSession(token: string, intents: number): Promise<GatewayTestClient> {
  const client = await GatewayTestClient.connect(gatewayUrl);
  clients.push(client);
  await client.identify(token, { intents });
  return client;
}

let gatewayUrl: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' } });
  gatewayUrl = ((await (await fetch(`${stack.apiUrl}/api/v10/gateway`)).json()) as { url: string }).url;
  owner = await createUser(stack, { username: 'owner' });
  alice = await createUser(stack, { username: 'alice', global_name: 'Alice' });
  guild = await createGuild(stack, { name: 'Voice Guild', owner_id: owner.id });
  await admin('PUT', `/admin/guilds/${guild.id}/members/${alice.id}`, {}, 201);
  text = await channel(guild.id, { name: 'chat', type: 0 });
  talk = await channel(guild.id, { name: 'talk', type: 2 });
  locked = await channel(guild.id, {
    name: 'locked',
    type: 2,
    permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: String(CONNECT) }],
  });
  presenceApp = await createApplication(stack, { name: 'Presence Bot', owner_id: owner.id });
  managerApp = await createApplication(stack, { name: 'Manager Bot', owner_id: owner.id });
  for (const app of [presenceApp, managerApp]) {
    // The privileged intent granted, as the portal's toggle does (4014 without it, once enforced).
    await admin('PATCH', `/admin/applications/${app.id}`, { flags: GATEWAY_PRESENCE }, 200);
  }
  await admin(
    'POST',
    '/admin/oauth2/authorize',
    {
      client_id: presenceApp.id,
      user_id: owner.id,
      guild_id: guild.id,
      scope: 'bot',
      permissions: String(VIEW_CHANNEL | CONNECT | SET_VOICE_CHANNEL_STATUS),
    },
    200,
  );
  await admin(
    'POST',
    '/admin/oauth2/authorize',
    {
      client_id: managerApp.id,
      user_id: owner.id,
      guild_id: guild.id,
      scope: 'bot',
      permissions: String(VIEW_CHANNEL | MANAGE_CHANNELS),
    },
    200,
  );

  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildPresences, GatewayIntentBits.GuildVoiceStates],
    rest: { api: `${stack.apiUrl}/api` },
  });
  client.on(Events.Raw, (packet: { t?: string; d?: any }) => {
    if (packet.t) raw.push({ t: packet.t, d: packet.d });
  });
  client.on(Events.PresenceUpdate, (_old, presence) => presences.push(presence));
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(presenceApp.bot_token);
  discord = await ready;
  await eventually(() => discord.guilds.cache.get(guild.id));
}, 120_000);

afterEach(() => {
  for (const client of clients.splice(0)) client.close(1000);
});

afterAll(async () => {
  await discord?.destroy();
  await stack?.stop();
});

describe('PATCH /admin/users/{id}', () => {
  it('sets global_name, locale, profile_privacy and primary_guild, and refuses bad fields', async () => {
    const user = await createUser(stack, { username: 'patched' });
    const patched = await admin(
      'PATCH',
      `/admin/users/${user.id}`,
      {
        global_name: 'Patched',
        locale: 'fr',
        profile_privacy: 'friends',
        primary_guild: { identity_guild_id: guild.id, identity_enabled: true, tag: 'VOX', badge: 'abc123' },
      },
      200,
    );
    expect(patched).toMatchObject({
      id: user.id,
      global_name: 'Patched',
      locale: 'fr',
      primary_guild: { identity_guild_id: guild.id, identity_enabled: true, tag: 'VOX', badge: 'abc123' },
    });
    // Absent fields stay; null clears.
    expect(await admin('PATCH', `/admin/users/${user.id}`, { primary_guild: null }, 200)).toMatchObject({
      global_name: 'Patched',
      primary_guild: null,
    });
    const refused = async (body: unknown, path: string[], code: string) => {
      const answer = await stack.admin('PATCH', `/admin/users/${user.id}`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(50035);
      let node = answer.body.errors;
      for (const key of path) node = node?.[key];
      expect(node?._errors?.[0]?.code).toBe(code);
    };
    await refused({ profile_privacy: 'nobody' }, ['profile_privacy'], 'BASE_TYPE_CHOICES');
    await refused({ profile_privacy: 3 }, ['profile_privacy'], 'BASE_TYPE_STRING');
    await refused({ primary_guild: { tag: 'TOOLONG' } }, ['primary_guild', 'tag'], 'BASE_TYPE_BAD_LENGTH');
    await refused(
      { primary_guild: { identity_guild_id: '18446744073709551616' } },
      ['primary_guild', 'identity_guild_id'],
      'NUMBER_TYPE_MAX',
    );
    await refused({ primary_guild: [] }, ['primary_guild'], 'MODEL_TYPE_CONVERT');
    await refused({ global_name: 'a\u0000b' }, ['global_name'], 'STRING_TYPE_NUL_CHARACTER');
    expect(
      (await stack.admin('PATCH', '/admin/users/9223372036854775807', { locale: 'fr' })).body,
    ).toMatchObject({
      code: 10013,
    });
  });
});

describe('presence', () => {
  it("reaches a bot with GUILD_PRESENCES: status, activities, the privacy rule, offline at the session's end", async () => {
    const from = presences.length;
    const session = await userSession(alice.id);
    // Connecting makes the user online.
    const online = await eventually(() =>
      presences.slice(from).find((p) => p.userId === alice.id && p.status === 'online'),
    );
    expect(online.guild?.id).toBe(guild.id);
    expect(online.user?.username).toBe('alice');

    const mark = presences.length;
    session.send({
      op: 3,
      d: {
        since: null,
        status: 'dnd',
        afk: false,
        activities: [
          { name: 'Chess', type: 0 },
          { name: 'Custom Status', type: 4, state: 'Thinking', emoji: { name: '🤔' } },
        ],
      },
    });
    const dnd = await eventually(() =>
      presences.slice(mark).find((p) => p.userId === alice.id && p.status === 'dnd'),
    );
    expect(dnd.activities.map((a) => [a.type, a.name, a.state])).toEqual([
      [ActivityType.Playing, 'Chess', null],
      [ActivityType.Custom, 'Custom Status', 'Thinking'],
    ]);
    expect(dnd.clientStatus).toEqual({ desktop: 'dnd' });

    // Friends only: the custom status is no guild's to see.
    await admin('PATCH', `/admin/users/${alice.id}`, { profile_privacy: 'friends' }, 200);
    const rawMark = raw.length;
    session.send({
      op: 3,
      d: {
        since: 1,
        status: 'idle',
        afk: true,
        activities: [
          { type: 4, state: 'Secret' },
          { name: 'Go', type: 0 },
        ],
      },
    });
    const idle = await rawAfter(
      rawMark,
      'PRESENCE_UPDATE',
      (d) => d.user.id === alice.id && d.status === 'idle',
    );
    expect(idle.activities).toEqual([expect.objectContaining({ name: 'Go', type: 0 })]);
    expect(idle).toMatchObject({ guild_id: guild.id, client_status: { desktop: 'idle' } });

    // Invisible shows as offline, with nothing.
    const invisibleMark = raw.length;
    session.send({
      op: 3,
      d: { since: null, status: 'invisible', afk: false, activities: [{ name: 'Hidden', type: 0 }] },
    });
    expect(
      await rawAfter(
        invisibleMark,
        'PRESENCE_UPDATE',
        (d) => d.user.id === alice.id && d.status === 'offline',
      ),
    ).toMatchObject({ activities: [], client_status: {} });

    // Back online, then the last session ends: offline.
    session.send({ op: 3, d: { since: null, status: 'online', afk: false, activities: [] } });
    await eventually(() => presences.slice(mark).find((p) => p.userId === alice.id && p.status === 'online'));
    const endMark = raw.length;
    session.close(1000);
    expect(
      await rawAfter(endMark, 'PRESENCE_UPDATE', (d) => d.user.id === alice.id && d.status === 'offline'),
    ).toMatchObject({ guild_id: guild.id, activities: [] });
    await admin('PATCH', `/admin/users/${alice.id}`, { profile_privacy: 'everyone' }, 200);
  });

  it('hides a custom status from a guild above 200 members for friends_and_small_servers', async () => {
    const big = await createGuild(stack, { name: 'Big Guild', owner_id: owner.id });
    await admin('PUT', `/admin/guilds/${big.id}/members/${alice.id}`, {}, 201);
    // 200 more members: with the owner, alice and the bot, 203.
    for (let batch = 0; batch < 20; batch += 1) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const user = await createUser(stack, { username: `crowd-${batch}-${i}` });
          await admin('PUT', `/admin/guilds/${big.id}/members/${user.id}`, {}, 201);
        }),
      );
    }
    const joinMark = raw.length;
    await installApplication(stack, {
      applicationId: presenceApp.id,
      userId: owner.id,
      guildId: big.id,
      scope: 'bot',
    });
    await rawAfter(joinMark, 'GUILD_CREATE', (d) => d.id === big.id);
    await admin('PATCH', `/admin/users/${alice.id}`, { profile_privacy: 'friends_and_small_servers' }, 200);

    const session = await userSession(alice.id);
    const mark = raw.length;
    session.send({
      op: 3,
      d: {
        since: null,
        status: 'dnd',
        afk: false,
        activities: [{ name: 'Custom Status', type: 4, state: 'Hi' }],
      },
    });
    const update = (guildId: string) =>
      rawAfter(
        mark,
        'PRESENCE_UPDATE',
        // The op 3's (the connection's own `online` may come after the mark).
        (d) => d.user.id === alice.id && d.guild_id === guildId && d.status === 'dnd',
      );
    expect((await update(guild.id)).activities).toEqual([expect.objectContaining({ type: 4, state: 'Hi' })]);
    expect((await update(big.id)).activities).toEqual([]);
    await admin('PATCH', `/admin/users/${alice.id}`, { profile_privacy: 'everyone' }, 200);
  }, 120_000);

  it("dispatches a bot's own presence to the guild's bots with GUILD_PRESENCES", async () => {
    const watcher = await botSession(managerApp.bot_token, GUILD_PRESENCES | 1);
    const from = watcher.received.length;
    discord.user.setPresence({
      status: 'idle',
      activities: [{ name: 'Sweeping', type: ActivityType.Watching }],
    });
    const seen = await watcher.next(
      (p) => p.t === 'PRESENCE_UPDATE' && (p.d as any).user.id === presenceApp.id,
      15_000,
      from,
    );
    expect(seen.d).toMatchObject({
      guild_id: guild.id,
      status: 'idle',
      activities: [expect.objectContaining({ name: 'Sweeping', type: 3 })],
      client_status: { web: 'idle' },
    });
  });

  it('closes a session sending a malformed presence with 4002', async () => {
    const bad: unknown[] = [
      { since: null, status: 'busy', afk: false, activities: [] },
      { since: null, status: 'online', afk: false, activities: {} },
      { since: 'yesterday', status: 'online', afk: false, activities: [] },
      { since: null, status: 'online', afk: 'no', activities: [] },
      { since: null, status: 'online', afk: false, activities: [{ name: 'x', type: 9 }] },
      { since: null, status: 'online', afk: false, activities: [{ name: 'a\u0000b', type: 0 }] },
      {
        since: null,
        status: 'online',
        afk: false,
        activities: Array.from({ length: 11 }, () => ({ name: 'x', type: 0 })),
      },
      'online',
    ];
    for (const d of bad) {
      const session = await userSession(alice.id);
      session.send({ op: 3, d });
      expect({ d, close: (await session.closed).code }).toEqual({ d, close: 4002 });
    }
  }, 60_000);
});

describe('voice', () => {
  const bot = () => `Bot ${presenceApp.bot_token}`;
  const setStatus = (channelId: string, body: unknown, token = bot()) =>
    api(stack, 'PUT', `/channels/${channelId}/voice-status`, { token, body });
  const guildOf = (): Guild => discord.guilds.cache.get(guild.id)!;
  const sendOp = (op: number, d: unknown) => guildOf().shard.send({ op, d });

  it('joins with op 4, sets the status under the permission rules, reads it with op 43, and leaves', async () => {
    // Not connected: SET_VOICE_CHANNEL_STATUS is not enough without MANAGE_CHANNELS.
    expect(await setStatus(talk, { status: 'Early' })).toMatchObject({ status: 403, body: { code: 50013 } });
    // The manager has MANAGE_CHANNELS but not SET_VOICE_CHANNEL_STATUS.
    expect(await setStatus(talk, { status: 'Early' }, `Bot ${managerApp.bot_token}`)).toMatchObject({
      status: 403,
      body: { code: 50013 },
    });

    const joined = new Promise<void>((resolve) =>
      discord.on(Events.VoiceStateUpdate, (_old, state) => {
        if (state.id === presenceApp.id && state.channelId === talk) resolve();
      }),
    );
    const mark = raw.length;
    sendOp(4, { guild_id: guild.id, channel_id: talk, self_mute: false, self_deaf: true });
    await joined;
    expect(guildOf().members.me?.voice.channelId).toBe(talk);
    expect(guildOf().members.me?.voice.selfDeaf).toBe(true);
    const state = await rawAfter(mark, 'VOICE_STATE_UPDATE');
    expect(state).toMatchObject({
      guild_id: guild.id,
      channel_id: talk,
      user_id: presenceApp.id,
      session_id: expect.any(String),
      deaf: false,
      mute: false,
      self_deaf: true,
      self_mute: false,
      suppress: false,
    });
    const started = await rawAfter(mark, 'VOICE_CHANNEL_START_TIME_UPDATE');
    expect(started).toEqual({ id: talk, guild_id: guild.id, voice_start_time: expect.any(Number) });
    // ACS runs no voice servers.
    expect(raw.slice(mark).some((p) => p.t === 'VOICE_SERVER_UPDATE')).toBe(false);

    // Connected: SET_VOICE_CHANNEL_STATUS is enough.
    const statusMark = raw.length;
    expect(await setStatus(talk, { status: 'Playing chess' })).toEqual({ status: 204, body: null });
    expect(await rawAfter(statusMark, 'VOICE_CHANNEL_STATUS_UPDATE')).toEqual({
      id: talk,
      guild_id: guild.id,
      status: 'Playing chess',
    });

    const infoMark = raw.length;
    sendOp(43, { guild_id: guild.id, fields: ['status', 'voice_start_time'] });
    const info = await rawAfter(infoMark, 'CHANNEL_INFO');
    expect(info).toEqual({
      guild_id: guild.id,
      channels: expect.arrayContaining([
        { id: talk, status: 'Playing chess', voice_start_time: started.voice_start_time },
        { id: locked, status: null, voice_start_time: null },
      ]),
    });
    const onlyStatusMark = raw.length;
    sendOp(43, { guild_id: guild.id, fields: ['status'] });
    expect((await rawAfter(onlyStatusMark, 'CHANNEL_INFO')).channels).toContainEqual({
      id: talk,
      status: 'Playing chess',
    });

    // A channel without CONNECT: nothing happens (the bot stays where it is).
    const refusedMark = raw.length;
    sendOp(4, { guild_id: guild.id, channel_id: locked, self_mute: false, self_deaf: false });
    await new Promise((r) => setTimeout(r, 1500));
    expect(raw.slice(refusedMark).filter((p) => p.t === 'VOICE_STATE_UPDATE')).toEqual([]);
    expect(guildOf().members.me?.voice.channelId).toBe(talk);

    // Leaving empties the channel: its session ends and its status is cleared.
    const leaveMark = raw.length;
    sendOp(4, { guild_id: guild.id, channel_id: null, self_mute: false, self_deaf: false });
    expect(await rawAfter(leaveMark, 'VOICE_STATE_UPDATE')).toMatchObject({ channel_id: null });
    expect(await rawAfter(leaveMark, 'VOICE_CHANNEL_STATUS_UPDATE')).toEqual({
      id: talk,
      guild_id: guild.id,
      status: null,
    });
    expect(await rawAfter(leaveMark, 'VOICE_CHANNEL_START_TIME_UPDATE')).toEqual({
      id: talk,
      guild_id: guild.id,
      voice_start_time: null,
    });
    await eventually(() => (guildOf().members.me?.voice.channelId === null ? true : undefined));
  });

  it('lets a bot with MANAGE_CHANNELS and SET_VOICE_CHANNEL_STATUS set a status without connecting', async () => {
    const managed = await channel(guild.id, {
      name: 'managed',
      type: 13,
      permission_overwrites: [
        { id: managerApp.id, type: 1, allow: String(SET_VOICE_CHANNEL_STATUS), deny: '0' },
      ],
    });
    const mark = raw.length;
    expect(await setStatus(managed, { status: 'Stage night' }, `Bot ${managerApp.bot_token}`)).toEqual({
      status: 204,
      body: null,
    });
    expect(await rawAfter(mark, 'VOICE_CHANNEL_STATUS_UPDATE', (d) => d.id === managed)).toEqual({
      id: managed,
      guild_id: guild.id,
      status: 'Stage night',
    });
    expect(await setStatus(managed, { status: null }, `Bot ${managerApp.bot_token}`)).toEqual({
      status: 204,
      body: null,
    });
  });

  it('refuses hostile input on PUT /channels/{id}/voice-status', async () => {
    const elsewhere = await createGuild(stack, { name: 'Elsewhere', owner_id: owner.id });
    const foreign = await channel(elsewhere.id, { name: 'far', type: 2 });
    const invalid = (code: string) => ({
      status: 400,
      body: { code: 50035, errors: { status: { _errors: [expect.objectContaining({ code })] } } },
    });
    expect(await setStatus(talk, { status: 'x'.repeat(501) })).toMatchObject(invalid('BASE_TYPE_MAX_LENGTH'));
    expect(await setStatus(talk, { status: 'a\u0000b' })).toMatchObject({
      status: 400,
      body: { code: 50035 },
    });
    expect(await setStatus(talk, { status: 42 })).toMatchObject(invalid('BASE_TYPE_STRING'));
    expect(await setStatus(talk, [])).toMatchObject({ status: 400 });
    expect(await setStatus(foreign, { status: 'hi' })).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await setStatus(text, { status: 'hi' })).toMatchObject({ status: 400, body: { code: 50024 } });
    expect(await setStatus('18446744073709551616', { status: 'hi' })).toMatchObject({
      status: 400,
      body: { code: 50035 },
    });
    expect(await setStatus('9223372036854775807', { status: 'hi' })).toMatchObject({
      status: 404,
      body: { code: 10003 },
    });
    // A chat-client session token is no credential of this route (as on every bot route of ACS).
    const session = (await admin('POST', `/admin/users/${alice.id}/sessions`, {}, 201)).token as string;
    expect(await setStatus(talk, { status: 'hi' }, session)).toMatchObject({
      status: 401,
      body: { code: 0 },
    });
    expect(await setStatus(talk, { status: 'hi' }, 'Bot nope')).toMatchObject({ status: 401 });
    const malformed = await fetch(`${stack.apiUrl}/api/v10/channels/${talk}/voice-status`, {
      method: 'PUT',
      headers: { Authorization: bot(), 'Content-Type': 'application/json' },
      body: '{"status":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: number }).code).toBe(50109);
  });

  it('closes a session sending a malformed op 4 or op 43 with 4002, and ignores a foreign guild', async () => {
    const bad: Array<[number, unknown]> = [
      [4, { guild_id: 'abc', channel_id: null, self_mute: false, self_deaf: false }],
      [4, { guild_id: guild.id, channel_id: '18446744073709551616', self_mute: false, self_deaf: false }],
      [4, { guild_id: guild.id, channel_id: talk, self_mute: 'yes', self_deaf: false }],
      [4, null],
      [43, { guild_id: guild.id, fields: 'status' }],
      [43, { guild_id: guild.id, fields: [1] }],
      [43, { guild_id: 5, fields: ['status'] }],
    ];
    for (const [op, d] of bad) {
      const session = await botSession(managerApp.bot_token, 1);
      session.send({ op, d });
      expect({ op, d, close: (await session.closed).code }).toEqual({ op, d, close: 4002 });
    }
    // A guild the bot is not in: no answer, the session goes on.
    const elsewhere = await createGuild(stack, { name: 'Not mine', owner_id: owner.id });
    const session = await botSession(managerApp.bot_token, 1);
    const from = session.received.length;
    session.send({ op: 43, d: { guild_id: elsewhere.id, fields: ['status'] } });
    session.send({ op: 43, d: { guild_id: guild.id, fields: ['status', 'unknown_field'] } });
    const answer: Received = await session.next((p) => p.t === 'CHANNEL_INFO', 15_000, from);
    expect((answer.d as any).guild_id).toBe(guild.id);
    expect(session.received.slice(from).filter((p) => p.t === 'CHANNEL_INFO')).toHaveLength(1);
  });

  it('answers op 43 with only the voice channels the bot may view (issue 28, finding 6)', async () => {
    const hidden = await channel(guild.id, {
      name: 'hidden',
      type: 2,
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: String(1n << 10n) }],
    });
    const session = await botSession(managerApp.bot_token, 1);
    const from = session.received.length;
    session.send({ op: 43, d: { guild_id: guild.id, fields: ['status'] } });
    const answer: Received = await session.next((p) => p.t === 'CHANNEL_INFO', 15_000, from);
    const ids = (answer.d as { channels: Array<{ id: string }> }).channels.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([talk, locked]));
    expect(ids).not.toContain(hidden);
  });
});
