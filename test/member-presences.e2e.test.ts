import { ActivityType, Client, Events, GatewayIntentBits, type Guild } from 'discord.js';
import { GatewayTestClient } from './helpers/gateway-client';
import { createApplication, createGuild, createUser, startTestStack, type TestStack } from './support';
import { expectAdmin } from './support/stack-steps';

/**
 * Presences in Guild Members Chunks (issue 13, the members and presence branches wired
 * together): `guild.members.fetch({ withPresences: true })` of a discord.js bot with
 * GUILD_MEMBERS and GUILD_PRESENCES gets, in the op 8 answer, the presences the guild's
 * users set with op 3 from their chat-client sessions, a custom status left out for a user
 * whose profile privacy is `friends`, and no presence for an offline member.
 */
const VIEW_CHANNEL = 1n << 10n;
/** GATEWAY_PRESENCE and GATEWAY_GUILD_MEMBERS (D:resources/application.mdx §Application Flags). */
const GATEWAY_PRESENCE = 1 << 12;
const GATEWAY_GUILD_MEMBERS = 1 << 14;

let stack: TestStack;
let gatewayUrl: string;
let guildId: string;
let alice: { id: string };
let bob: { id: string };
let carol: { id: string };
let owner: { id: string };
let app: { id: string; bot_token: string };
let discord: Client<true>;
/** Every dispatch discord.js received, in order. */
const raw: Array<{ t: string; d: any }> = [];
const sessions: GatewayTestClient[] = [];

const admin = (method: string, path: string, body: unknown, status: number): Promise<any> =>
  expectAdmin(stack, method, path, body, status);

async function eventually<T>(what: string, check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${stack.recentLogs(10)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A chat-client session of the user, identified as the official client does. */
async function userSession(userId: string): Promise<GatewayTestClient> {
  const token = (await admin('POST', `/admin/users/${userId}/sessions`, {}, 201)).token as string;
  const session = await GatewayTestClient.connect(gatewayUrl);
  sessions.push(session);
  await session.identify(token, { intents: undefined, capabilities: 16381 });
  return session;
}

/** A bot session watching the guild's presences, to know when one was stored. */
let watcher: GatewayTestClient;

/** Sets a user's presence with op 3 and waits until it was announced to the guild's bot. */
async function setPresence(session: GatewayTestClient, userId: string, d: Record<string, unknown>) {
  session.send({ op: 3, d });
  await watcher.next((p) => p.t === 'PRESENCE_UPDATE' && p.d.user.id === userId && p.d.status === d.status);
}

beforeAll(async () => {
  stack = await startTestStack({ env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' } });
  gatewayUrl = `ws://127.0.0.1:${stack.ports.gateway}`;
  owner = await createUser(stack, { username: 'owner' });
  alice = await createUser(stack, { username: 'alice', global_name: 'Alice' });
  bob = await createUser(stack, { username: 'bob' });
  carol = await createUser(stack, { username: 'carol' });
  guildId = (await createGuild(stack, { name: 'Present Company', owner_id: owner.id })).id;
  for (const user of [alice, bob, carol]) {
    await admin('PUT', `/admin/guilds/${guildId}/members/${user.id}`, {}, 201);
  }
  app = await createApplication(stack, { name: 'Roll Call', owner_id: owner.id });
  await admin(
    'PATCH',
    `/admin/applications/${app.id}`,
    { flags: GATEWAY_PRESENCE | GATEWAY_GUILD_MEMBERS },
    200,
  );
  await admin(
    'POST',
    '/admin/oauth2/authorize',
    {
      client_id: app.id,
      user_id: owner.id,
      guild_id: guildId,
      scope: 'bot',
      permissions: String(VIEW_CHANNEL),
    },
    200,
  );
  watcher = await GatewayTestClient.connect(gatewayUrl);
  sessions.push(watcher);
  await watcher.identify(app.bot_token, { intents: 1 | (1 << 8) });

  // Bob shows his custom status to friends only: no guild's bot sees it.
  await admin('PATCH', `/admin/users/${bob.id}`, { profile_privacy: 'friends' }, 200);
  await setPresence(await userSession(alice.id), alice.id, {
    since: null,
    status: 'dnd',
    afk: false,
    activities: [
      { name: 'Chess', type: 0 },
      { name: 'Custom Status', type: 4, state: 'Thinking', emoji: { name: '🤔' } },
    ],
  });
  await setPresence(await userSession(bob.id), bob.id, {
    since: 1,
    status: 'idle',
    afk: true,
    activities: [
      { type: 4, state: 'Secret' },
      { name: 'Go', type: 0 },
    ],
  });

  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers, GatewayIntentBits.GuildPresences],
    rest: { api: `${stack.apiUrl}/api` },
  });
  client.on(Events.Raw, (packet: { t?: string; d?: any }) => {
    if (packet.t) raw.push({ t: packet.t, d: packet.d });
  });
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(app.bot_token);
  discord = await ready;
  await eventually('the guild', () => discord.guilds.cache.get(guildId));
}, 120_000);

afterAll(async () => {
  for (const session of sessions) session.close(1000);
  await discord?.destroy();
  await stack?.stop();
});

describe('GUILD_CREATE after Identify', () => {
  const guildCreateOf = (packets: Array<{ t?: string; d?: any }>, id: string) =>
    packets.find((p) => p.t === 'GUILD_CREATE' && p.d.id === id)?.d;

  it('with GUILD_PRESENCES: every member of a small guild and the presences of those connected', () => {
    const d = guildCreateOf(raw, guildId);
    expect(d.large).toBe(false);
    expect(d.members.map((m: any) => m.user.id)).toEqual([
      app.id,
      ...[owner.id, alice.id, bob.id, carol.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    ]);
    expect(d.members.find((m: any) => m.user.id === alice.id).user).toMatchObject({ username: 'alice' });
    // The users' presences; the bot's own (discord.js's Identify sets it) is set after READY.
    expect(d.presences.map((p: any) => p.user.id).sort()).toEqual([alice.id, bob.id].sort());
    expect(d.presences.find((p: any) => p.user.id === bob.id).activities).toEqual([
      expect.objectContaining({ name: 'Go', type: 0 }),
    ]);
    const guild = discord.guilds.cache.get(guildId)!;
    expect(guild.members.cache.size).toBe(5);
    expect(guild.members.cache.get(alice.id)?.presence?.status).toBe('dnd');
    expect(guild.presences.cache.get(alice.id)?.activities.map((a) => a.type)).toEqual([
      ActivityType.Playing,
      ActivityType.Custom,
    ]);
    expect(guild.presences.cache.get(bob.id)?.status).toBe('idle');
    expect(guild.presences.cache.has(carol.id)).toBe(false);
  });

  it('without GUILD_PRESENCES: the bot alone, no presences', async () => {
    const session = await GatewayTestClient.connect(gatewayUrl);
    sessions.push(session);
    await session.identify(app.bot_token, { intents: 1 | (1 << 1) });
    const d = (await session.dispatch('GUILD_CREATE')).d as any;
    expect(d.members.map((m: any) => m.user.id)).toEqual([app.id]);
    expect(d.presences).toEqual([]);
    expect(d.large).toBe(false);
  });

  it('above large_threshold: large, with only the members online, with a role or a nickname', async () => {
    const crowded = (await createGuild(stack, { name: 'Crowded', owner_id: owner.id })).id;
    const role = await admin(
      'POST',
      `/admin/guilds/${crowded}/roles`,
      { name: 'ranked', permissions: '0' },
      201,
    );
    await admin('PUT', `/admin/guilds/${crowded}/members/${alice.id}`, {}, 201);
    await admin('PUT', `/admin/guilds/${crowded}/members/${bob.id}`, { nick: 'Bobby' }, 201);
    await admin('PUT', `/admin/guilds/${crowded}/members/${carol.id}`, { roles: [role.id] }, 201);
    const extras = Array.from({ length: 47 }, (_, i) => i);
    for (let i = 0; i < extras.length; i += 12) {
      await Promise.all(
        extras.slice(i, i + 12).map(async (n) => {
          const user = await createUser(stack, { username: `extra${n}` });
          await admin('PUT', `/admin/guilds/${crowded}/members/${user.id}`, {}, 201);
        }),
      );
    }
    await admin(
      'POST',
      '/admin/oauth2/authorize',
      { client_id: app.id, user_id: owner.id, guild_id: crowded, scope: 'bot', permissions: '0' },
      200,
    );
    // owner, alice, bob, carol, 47 others and the bot: 52 members.
    // discord.js's session (GUILD_PRESENCES, large_threshold 50) learns of the join with the
    // same crowd as after an Identify.
    const joined = await eventually('the GUILD_CREATE of the join', () => guildCreateOf(raw, crowded));
    expect(joined).toMatchObject({ large: true, member_count: 52 });
    expect(joined).not.toHaveProperty('unavailable');
    expect(joined.members.map((m: any) => m.user.id).sort()).toEqual(
      [app.id, alice.id, bob.id, carol.id].sort(),
    );
    expect(joined.presences.map((p: any) => p.user.id).sort()).toEqual([alice.id, bob.id, app.id].sort());
    for (const [threshold, large] of [
      [50, true],
      [250, false],
    ] as const) {
      const session = await GatewayTestClient.connect(gatewayUrl);
      sessions.push(session);
      await session.identify(app.bot_token, { intents: 1 | (1 << 8), large_threshold: threshold });
      const d = (await session.next((p) => p.t === 'GUILD_CREATE' && (p.d as any).id === crowded)).d as any;
      expect(d.large).toBe(large);
      expect(d.member_count).toBe(52);
      const listed = d.members.map((m: any) => m.user.id);
      if (large) expect(listed.sort()).toEqual([app.id, alice.id, bob.id, carol.id].sort());
      else expect(listed).toHaveLength(52);
      expect(d.presences.map((p: any) => p.user.id).sort()).toEqual([alice.id, bob.id, app.id].sort());
      session.close(1000);
    }
  }, 60_000);
});

describe('guild.members.fetch({ withPresences: true })', () => {
  let guild: Guild;
  beforeAll(() => {
    guild = discord.guilds.cache.get(guildId)!;
  });

  it("carries the connected members' presences in the chunk, none for the offline ones", async () => {
    // Whatever the cache learnt before is forgotten: the presences must come with the chunk.
    guild.presences.cache.clear();
    const from = raw.length;
    const members = await guild.members.fetch({ withPresences: true });
    expect([...members.keys()].sort()).toEqual([owner.id, alice.id, bob.id, carol.id, app.id].sort());

    const chunks = raw.slice(from).filter((p) => p.t === 'GUILD_MEMBERS_CHUNK');
    expect(chunks).toHaveLength(1);
    const sent = chunks[0]!.d.presences as any[];
    // The bot is connected too: online, as its own session set it.
    expect(sent.map((p) => p.user.id).sort()).toEqual([alice.id, bob.id, app.id].sort());
    expect(sent.find((p) => p.user.id === app.id)).toMatchObject({ status: 'online', guild_id: guildId });

    const aliceNow = guild.presences.cache.get(alice.id);
    expect(aliceNow?.status).toBe('dnd');
    expect(aliceNow?.activities.map((a) => [a.type, a.name, a.state])).toEqual([
      [ActivityType.Playing, 'Chess', null],
      [ActivityType.Custom, 'Custom Status', 'Thinking'],
    ]);
    expect(aliceNow?.clientStatus).toEqual({ desktop: 'dnd' });
    expect(members.get(alice.id)?.presence?.status).toBe('dnd');
    expect(guild.presences.cache.has(carol.id)).toBe(false);
    expect(guild.presences.cache.has(owner.id)).toBe(false);
  });

  it("leaves out the custom status of a user whose profile privacy is 'friends'", async () => {
    const bobNow = guild.presences.cache.get(bob.id);
    expect(bobNow?.status).toBe('idle');
    expect(bobNow?.activities.map((a) => [a.type, a.name])).toEqual([[ActivityType.Playing, 'Go']]);
    const sent = raw
      .filter((p) => p.t === 'GUILD_MEMBERS_CHUNK')
      .at(-1)!
      .d.presences.find((p: any) => p.user.id === bob.id);
    expect(sent.activities.some((a: any) => a.type === 4)).toBe(false);
  });

  it('carries no presences without withPresences', async () => {
    const from = raw.length;
    await guild.members.fetch({ user: [alice.id, bob.id] });
    const chunk = await eventually('the chunk', () =>
      raw.slice(from).find((p) => p.t === 'GUILD_MEMBERS_CHUNK'),
    );
    expect(chunk.d.presences).toBeUndefined();
    expect(chunk.d.members).toHaveLength(2);
  });

  it('carries presences when asked by user_ids', async () => {
    guild.presences.cache.clear();
    const from = raw.length;
    await guild.members.fetch({ user: [alice.id, carol.id], withPresences: true });
    const chunk = await eventually('the chunk', () =>
      raw.slice(from).find((p) => p.t === 'GUILD_MEMBERS_CHUNK'),
    );
    expect(chunk.d.presences.map((p: any) => [p.user.id, p.status])).toEqual([[alice.id, 'dnd']]);
    expect(guild.presences.cache.get(alice.id)?.status).toBe('dnd');
  });
});
