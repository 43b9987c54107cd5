import { WebSocketShard } from '@discordjs/ws';
import { ChannelFlags, Client, Events, GatewayIntentBits, type GuildChannel } from 'discord.js';
import { REST } from '@discordjs/rest';
import { expectSchema } from './helpers/openapi-validator';
import { GatewayTestClient } from './helpers/gateway-client';
import { createApplication, createGuild, createUser, startTestStack, type TestStack } from './support';
import { ChatUser } from './support/chat-user';
import { expectAdmin, waitUntil } from './support/stack-steps';

/**
 * Channels a bot cannot view (issue 13 item 1): a discord.js bot that asks for channel
 * obfuscation (Identify capability 1 << 15) holds the hidden channel obfuscated in
 * `guild.channels.cache`, then in full once an overwrite grants it VIEW_CHANNEL; Get Guild
 * Channels through @discordjs/rest leaves the hidden channel out; the overwrite routes
 * answer Discord's errors.
 */
const CHANNEL_OBFUSCATION = 1 << 15;
const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const MANAGE_ROLES = 1n << 28n;
const ADMINISTRATOR = 1n << 3n;

let stack: TestStack;
let client: Client<true>;
let rest: REST;
let guildId: string;
let botId: string;
let botToken: string;
let clientSecret: string;
let ownerId: string;
let foreignGuildId: string;
/** A session of the same bot that did not ask for obfuscation. */
let plain: GatewayTestClient;
const opened: ChatUser[] = [];
let publicId: string;
let secretId: string;
let categoryId: string;
/** CHANNEL_* and GUILD_CREATE dispatches as the gateway sent them. */
const raw: Array<{ t: string; d: any }> = [];
const originalSend = WebSocketShard.prototype.send;

const admin = (method: string, path: string, body: unknown, status: number): Promise<any> =>
  expectAdmin(stack, method, path, body, status);

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs?: number): Promise<T> =>
  waitUntil(stack, what, probe, timeoutMs);

/** A raw HTTP call to the public API with the bot's token (or `auth`). */
async function call(method: string, path: string, body?: string, auth = `Bot ${botToken}`) {
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as any) : null };
}

const cached = (id: string) =>
  client.guilds.cache.get(guildId)?.channels.cache.get(id) as GuildChannel | undefined;

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await createUser(stack, { username: 'owner' });
  ownerId = owner.id;
  const guild = await createGuild(stack, { name: 'Hidden Things', owner_id: owner.id });
  guildId = guild.id;
  foreignGuildId = (await createGuild(stack, { name: 'Elsewhere', owner_id: owner.id })).id;
  const app = await createApplication(stack, { name: 'Watcher' });
  botId = app.id;
  botToken = app.bot_token;
  clientSecret = app.client_secret;
  const category = await admin('POST', `/admin/guilds/${guildId}/channels`, { name: 'hall', type: 4 }, 201);
  categoryId = category.id;
  publicId = (
    await admin(
      'POST',
      `/admin/guilds/${guildId}/channels`,
      { name: 'lobby', type: 0, parent_id: categoryId },
      201,
    )
  ).id;
  secretId = (
    await admin(
      'POST',
      `/admin/guilds/${guildId}/channels`,
      {
        name: 'plans',
        type: 0,
        permission_overwrites: [{ id: guildId, type: 0, allow: '0', deny: VIEW_CHANNEL.toString() }],
      },
      201,
    )
  ).id;
  await admin(
    'POST',
    '/admin/oauth2/authorize',
    {
      client_id: botId,
      user_id: owner.id,
      guild_id: guildId,
      scope: 'bot applications.commands',
      permissions: (VIEW_CHANNEL | SEND_MESSAGES | MANAGE_ROLES).toString(),
    },
    200,
  );

  // discord.js has no option for Identify's `capabilities`: its shard's send is wrapped,
  // for this bot's Identify only.
  WebSocketShard.prototype.send = function (this: WebSocketShard, payload: any) {
    if (payload?.op === 2 && payload.d?.token === botToken) {
      payload = { ...payload, d: { ...payload.d, capabilities: CHANNEL_OBFUSCATION } };
    }
    return originalSend.call(this, payload);
  } as typeof originalSend;
  const discord = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
  discord.on(Events.Raw, (packet: { t?: string; d?: any }) => {
    if (packet.t && /^(CHANNEL_|THREAD_|GUILD_CREATE|INTERACTION_CREATE)/.test(packet.t))
      raw.push({ t: packet.t, d: packet.d });
  });
  const ready = new Promise<Client<true>>((resolve) => discord.once(Events.ClientReady, resolve));
  await discord.login(botToken);
  client = await ready;
  rest = new REST({ api: `${stack.apiUrl}/api` }).setToken(botToken);
  await waitFor('the guild', () => client.guilds.cache.get(guildId));
  // Identify allows one session start per 5 s for the bot (max_concurrency 1): retry after it.
  for (let attempt = 0; ; attempt++) {
    plain = await GatewayTestClient.connect(`ws://127.0.0.1:${stack.ports.gateway}`);
    try {
      await plain.identify(botToken, { intents: 1 });
      break;
    } catch (error) {
      plain.close(1000);
      if (attempt === 3) throw error;
      await new Promise((r) => setTimeout(r, 5_500));
    }
  }
});

afterAll(async () => {
  for (const user of opened) user.close();
  plain?.close(1000);
  WebSocketShard.prototype.send = originalSend;
  await client?.destroy();
  await stack?.stop();
});

describe('over the gateway, with capability 1 << 15', () => {
  it('GUILD_CREATE holds the hidden channel obfuscated, the others in full', () => {
    const secret = cached(secretId);
    expect(secret?.name).toBe('___hidden___');
    expect(secret?.flags.has(ChannelFlags.ChannelObfuscated)).toBe(true);
    expect(
      [...(secret as any).permissionOverwrites.cache.values()].map((o: any) => ({
        id: o.id,
        type: o.type,
        allow: o.allow.bitfield.toString(),
        deny: o.deny.bitfield.toString(),
      })),
    ).toEqual([{ id: guildId, type: 0, allow: '0', deny: '1024' }]);
    const guildCreate = raw.find((p) => p.t === 'GUILD_CREATE')?.d;
    const hidden = guildCreate.channels.find((c: any) => c.id === secretId);
    expect(hidden).toMatchObject({
      name: '___hidden___',
      topic: null,
      last_message_id: null,
      flags: 1 << 17,
    });
    expect(cached(publicId)?.name).toBe('lobby');
    expect(cached(categoryId)?.name).toBe('hall');
    expect(cached(publicId)?.flags.bitfield).toBe(0);
  });

  it('a grant of VIEW_CHANNEL brings CHANNEL_UPDATE with the full channel; a denial hides it again', async () => {
    const from = raw.length;
    const overwrites = [
      { id: guildId, type: 0, allow: '0', deny: VIEW_CHANNEL.toString() },
      { id: botId, type: 1, allow: VIEW_CHANNEL.toString(), deny: '0' },
    ];
    await admin('PATCH', `/admin/channels/${secretId}`, { permission_overwrites: overwrites }, 200);
    await waitFor('the full channel', () => (cached(secretId)?.name === 'plans' ? true : undefined));
    expect(cached(secretId)?.flags.bitfield).toBe(0);
    expect((cached(secretId) as any).permissionOverwrites.cache.get(botId)?.allow.has(VIEW_CHANNEL)).toBe(
      true,
    );
    const update = raw.slice(from).find((p) => p.t === 'CHANNEL_UPDATE' && p.d.id === secretId)?.d;
    expect(update.permission_overwrites).toHaveLength(2);

    await admin(
      'PATCH',
      `/admin/channels/${secretId}`,
      { name: 'plans-2', permission_overwrites: [overwrites[0]] },
      200,
    );
    await waitFor('the channel hidden again', () =>
      cached(secretId)?.name === '___hidden___' ? true : undefined,
    );
  });

  it('a session without the capability sees every channel in full, as before', async () => {
    const guildCreate = await plain.dispatch('GUILD_CREATE');
    const secret = guildCreate.d.channels.find((c: { id: string }) => c.id === secretId);
    expect(secret).toMatchObject({ name: 'plans', flags: 0 });
    expect(secret.permission_overwrites).toEqual([{ id: guildId, type: 0, allow: '0', deny: '1024' }]);
    const hiddenAgain = await plain.next((p) => p.t === 'CHANNEL_UPDATE' && p.d.name === 'plans-2');
    expect(hiddenAgain.d.flags).toBe(0);
    expect(hiddenAgain.d.permission_overwrites).toHaveLength(1);
  });

  it('a new hidden channel arrives obfuscated by CHANNEL_CREATE, a visible one in full', async () => {
    const hidden = await admin(
      'POST',
      `/admin/guilds/${guildId}/channels`,
      { name: 'vault', type: 2, permission_overwrites: [{ id: guildId, type: 0, deny: '1024' }] },
      201,
    );
    const shown = await admin('POST', `/admin/guilds/${guildId}/channels`, { name: 'news', type: 0 }, 201);
    await waitFor('both channels', () => (cached(hidden.id) && cached(shown.id) ? true : undefined));
    expect(cached(hidden.id)?.name).toBe('___hidden___');
    expect(cached(shown.id)?.name).toBe('news');
    // Threads come as THREAD_CREATE, hidden through their parent.
    const talk = await admin(
      'POST',
      `/admin/guilds/${guildId}/channels`,
      { name: 'talk', type: 11, parent_id: shown.id },
      201,
    );
    const whisper = await admin(
      'POST',
      `/admin/guilds/${guildId}/channels`,
      { name: 'whisper', type: 11, parent_id: secretId },
      201,
    );
    await waitFor('both threads', () => (cached(talk.id) && cached(whisper.id) ? true : undefined));
    expect([cached(talk.id)?.name, cached(whisper.id)?.name]).toEqual(['talk', '___hidden___']);
    expect(raw.filter((p) => p.t === 'THREAD_CREATE').map((p) => p.d.id)).toEqual([talk.id, whisper.id]);
    await admin('DELETE', `/admin/channels/${shown.id}`, undefined, 204);
    await waitFor('the deleted channel and its thread gone', () =>
      cached(shown.id) || cached(talk.id) ? undefined : true,
    );
    expect(raw.some((p) => p.t === 'THREAD_DELETE' && p.d.id === talk.id)).toBe(true);
  });
});

describe('GET /guilds/{guild.id}/channels', () => {
  it('omits the channels the bot may not view, and no thread', async () => {
    const channels = (await rest.get(`/guilds/${guildId}/channels`)) as any[];
    const ids = channels.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([categoryId, publicId]));
    expect(ids).not.toContain(secretId);
    for (const channel of channels) expectSchema('GuildChannelResponse', channel);
  });

  it('answers Discord errors for foreign, unknown and malformed guilds and for Bearer tokens', async () => {
    expect(await call('GET', `/guilds/${foreignGuildId}/channels`)).toMatchObject({
      status: 403,
      body: { code: 50001 },
    });
    expect(await call('GET', '/guilds/123456789012345678/channels')).toMatchObject({
      status: 404,
      body: { code: 10004 },
    });
    expect(await call('GET', `/guilds/${(2n ** 64n).toString()}/channels`)).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { guild_id: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } } },
    });
    expect(await call('GET', `/guilds/${guildId}/channels`, undefined, 'Bot nope')).toMatchObject({
      status: 401,
    });
    const token = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: botId,
        client_secret: clientSecret,
      }).toString(),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    expect(
      await call('GET', `/guilds/${guildId}/channels`, undefined, `Bearer ${access_token}`),
    ).toMatchObject({
      status: 401,
      body: { code: 0 },
    });
  });
});

describe('PUT and DELETE /channels/{channel.id}/permissions/{overwrite.id}', () => {
  const path = () => `/channels/${publicId}/permissions/${guildId}`;

  it('sets and deletes an overwrite (204), each a CHANNEL_UPDATE', async () => {
    await rest.put(path() as `/${string}`, { body: { type: 0, allow: SEND_MESSAGES.toString(), deny: '0' } });
    await waitFor('the overwrite', () =>
      (cached(publicId) as any)?.permissionOverwrites.cache.get(guildId)?.allow.has(SEND_MESSAGES)
        ? true
        : undefined,
    );
    expect(await call('DELETE', path())).toEqual({ status: 204, body: null });
    await waitFor('the overwrite gone', () =>
      (cached(publicId) as any)?.permissionOverwrites.cache.get(guildId) ? undefined : true,
    );
    expect(await call('DELETE', path())).toMatchObject({ status: 404, body: { code: 10009 } });
  });

  it('refuses bits the bot does not hold, and bad bodies, without writing', async () => {
    const beyond = await call('PUT', path(), JSON.stringify({ type: 0, allow: ADMINISTRATOR.toString() }));
    expect(beyond).toMatchObject({ status: 403, body: { code: 50013 } });
    expect(beyond.body.message).toContain('ADMINISTRATOR');
    const bad = [
      ['{', 400, 50109],
      [JSON.stringify({ allow: '1' }), 400, 50035],
      [JSON.stringify({ type: 5 }), 400, 50035],
      [JSON.stringify({ type: 0, allow: 'abc' }), 400, 50035],
      [JSON.stringify({ type: 0, allow: (2n ** 64n).toString() }), 400, 50035],
      [JSON.stringify({ type: 0, allow: 'x\u0000' }), 400, 50035],
      [JSON.stringify([1]), 400, 50035],
    ] as const;
    for (const [body, status, code] of bad) {
      expect({ body, answer: await call('PUT', path(), body) }).toMatchObject({
        body,
        answer: { status, body: { code } },
      });
    }
    expect(
      await call('PUT', `/channels/${secretId}/permissions/${guildId}`, JSON.stringify({ type: 0 })),
    ).toMatchObject({
      status: 403,
      body: { code: 50001 },
    });
    expect(
      await call('PUT', `/channels/1/permissions/${guildId}`, JSON.stringify({ type: 0 })),
    ).toMatchObject({
      status: 404,
      body: { code: 10003 },
    });
    expect(
      await call(
        'PUT',
        `/channels/${publicId}/permissions/${(2n ** 64n).toString()}`,
        JSON.stringify({ type: 0 }),
      ),
    ).toMatchObject({ status: 400, body: { code: 50035 } });
    expect(
      await call('PUT', `/channels/${publicId}/permissions/42`, JSON.stringify({ type: 0 })),
    ).toMatchObject({
      status: 404,
      body: { code: 10011 },
    });
    expect((cached(publicId) as any).permissionOverwrites.cache.size).toBe(0);
  });

  it('needs MANAGE_ROLES', async () => {
    const role = client.guilds.cache.get(guildId)?.roles.cache.find((r) => r.tags?.botId === botId);
    expect(role).toBeDefined();
    await admin(
      'PATCH',
      `/admin/guilds/${guildId}/roles/${role!.id}`,
      { permissions: (VIEW_CHANNEL | SEND_MESSAGES).toString() },
      200,
    );
    const answer = await call('PUT', path(), JSON.stringify({ type: 0, allow: '0' }));
    expect(answer).toMatchObject({
      status: 403,
      body: { code: 50013, message: 'Missing Permissions: MANAGE_ROLES' },
    });
    expect(await call('DELETE', path())).toMatchObject({ status: 403, body: { code: 50013 } });
  });
});

describe('elsewhere', () => {
  it("an install's GUILD_CREATE is obfuscated for the capable session", async () => {
    const hidden = await admin(
      'POST',
      `/admin/guilds/${foreignGuildId}/channels`,
      { name: 'backroom', type: 0, permission_overwrites: [{ id: foreignGuildId, type: 0, deny: '1024' }] },
      201,
    );
    await admin(
      'POST',
      '/admin/oauth2/authorize',
      { client_id: botId, user_id: ownerId, guild_id: foreignGuildId, scope: 'bot', permissions: '1024' },
      200,
    );
    const channel = await waitFor('the new guild', () =>
      client.guilds.cache.get(foreignGuildId)?.channels.cache.get(hidden.id),
    );
    expect(channel.name).toBe('___hidden___');
    expect(channel.flags.has(ChannelFlags.ChannelObfuscated)).toBe(true);
  });

  it("an interaction's channel is never obfuscated", async () => {
    const put = await call(
      'PUT',
      `/applications/${botId}/guilds/${guildId}/commands`,
      JSON.stringify([{ name: 'peek', description: 'Peeks' }]),
    );
    expect(put.status).toBe(200);
    const command = put.body[0];
    client.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isChatInputCommand() && interaction.commandName === 'peek')
        void interaction.reply('Seen');
    });
    const user = await ChatUser.open(stack, ownerId);
    opened.push(user);
    const from = raw.length;
    const invoked = await user.invoke({
      type: 2,
      application_id: botId,
      guild_id: guildId,
      channel_id: secretId,
      data: { id: command.id, name: command.name, type: 1, version: command.version },
    });
    expect(invoked.status).toBe(200);
    // The bot may not view the channel: its gateway sessions hold it obfuscated...
    expect(cached(secretId)?.name).toBe('___hidden___');
    // ...but the interaction carries it as it is, over the gateway and in the stored interaction.
    const delivered = await waitFor('INTERACTION_CREATE', () =>
      raw.slice(from).find((p) => p.t === 'INTERACTION_CREATE'),
    );
    for (const channel of [delivered.d.channel, invoked.body.interaction.channel]) {
      expect(channel).toMatchObject({ id: secretId, name: 'plans-2' });
      expect((channel.flags ?? 0) & (1 << 17)).toBe(0);
    }
  });
});

describe('visibility flipped by roles, not overwrites', () => {
  const managedRole = () =>
    client.guilds.cache.get(guildId)!.roles.cache.find((r) => r.tags?.botId === botId)!;
  const updatesOf = (id: string, from: number) =>
    raw.slice(from).filter((p) => p.t === 'CHANNEL_UPDATE' && p.d.id === id);

  it('a role granted to the bot shows a channel open to that role; taking the role hides it again', async () => {
    const role = await admin(
      'POST',
      `/admin/guilds/${guildId}/roles`,
      { name: 'insiders', permissions: '0' },
      201,
    );
    const inner = await admin(
      'POST',
      `/admin/guilds/${guildId}/channels`,
      {
        name: 'inner',
        type: 0,
        permission_overwrites: [
          { id: guildId, type: 0, allow: '0', deny: VIEW_CHANNEL.toString() },
          { id: role.id, type: 0, allow: VIEW_CHANNEL.toString(), deny: '0' },
        ],
      },
      201,
    );
    await waitFor('the new channel', () => cached(inner.id));
    expect(cached(inner.id)?.name).toBe('___hidden___');
    expect(cached(inner.id)?.flags.has(ChannelFlags.ChannelObfuscated)).toBe(true);

    // The bot's managed role stays in the list (the route keeps it anyway).
    const managedId = managedRole().id;
    let from = raw.length;
    const granted = await admin(
      'PUT',
      `/admin/guilds/${guildId}/members/${botId}`,
      { roles: [managedId, role.id] },
      200,
    );
    expect([...granted.roles].sort()).toEqual([managedId, role.id].sort());
    await waitFor('the channel in full', () => (cached(inner.id)?.name === 'inner' ? true : undefined));
    expect(cached(inner.id)?.flags.has(ChannelFlags.ChannelObfuscated)).toBe(false);
    expect(updatesOf(inner.id, from).map((p) => [p.d.name, p.d.flags ?? 0])).toEqual([['inner', 0]]);
    // Only the channel whose visibility flipped is sent: the secret one stays hidden, untouched.
    expect(updatesOf(secretId, from)).toEqual([]);
    expect(cached(secretId)?.name).toBe('___hidden___');

    from = raw.length;
    const taken = await admin('PUT', `/admin/guilds/${guildId}/members/${botId}`, { roles: [] }, 200);
    // An empty list keeps the bot's own managed role, as the route promises.
    expect(taken.roles).toEqual([managedId]);
    await waitFor('the channel hidden again', () =>
      cached(inner.id)?.name === '___hidden___' ? true : undefined,
    );
    expect(cached(inner.id)?.flags.has(ChannelFlags.ChannelObfuscated)).toBe(true);
    expect(updatesOf(inner.id, from).map((p) => [p.d.name, p.d.flags])).toEqual([['___hidden___', 1 << 17]]);
  });

  it('@everyone losing VIEW_CHANNEL hides every channel without an allowing overwrite; regaining it shows them', async () => {
    // The managed role gives SEND_MESSAGES only: the bot views channels through @everyone.
    await admin(
      'PATCH',
      `/admin/guilds/${guildId}/roles/${managedRole().id}`,
      { permissions: SEND_MESSAGES.toString() },
      200,
    );
    await waitFor('the managed role changed', () =>
      managedRole().permissions.bitfield === SEND_MESSAGES ? true : undefined,
    );
    expect(cached(publicId)?.name).toBe('lobby');
    const everyone = await admin('PATCH', `/admin/guilds/${guildId}/roles/${guildId}`, {}, 200);
    const withView = BigInt(everyone.permissions);
    expect(withView & VIEW_CHANNEL).toBe(VIEW_CHANNEL);

    let from = raw.length;
    await admin(
      'PATCH',
      `/admin/guilds/${guildId}/roles/${guildId}`,
      { permissions: (withView & ~VIEW_CHANNEL).toString() },
      200,
    );
    await waitFor('the channels hidden', () =>
      cached(publicId)?.name === '___hidden___' && cached(categoryId)?.name === '___hidden___'
        ? true
        : undefined,
    );
    expect(cached(publicId)?.flags.has(ChannelFlags.ChannelObfuscated)).toBe(true);
    expect(updatesOf(publicId, from)).toHaveLength(1);
    // Hidden already: not sent again.
    expect(updatesOf(secretId, from)).toEqual([]);

    from = raw.length;
    await admin(
      'PATCH',
      `/admin/guilds/${guildId}/roles/${guildId}`,
      { permissions: withView.toString() },
      200,
    );
    await waitFor('the channels shown', () =>
      cached(publicId)?.name === 'lobby' && cached(categoryId)?.name === 'hall' ? true : undefined,
    );
    expect(cached(publicId)?.flags.has(ChannelFlags.ChannelObfuscated)).toBe(false);
    expect(updatesOf(publicId, from).map((p) => [p.d.name, p.d.flags ?? 0])).toEqual([['lobby', 0]]);
    expect(cached(secretId)?.name).toBe('___hidden___');
  });
});
