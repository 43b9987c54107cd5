import { DiscordAPIError, REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, PermissionFlagsBits, type TextChannel } from 'discord.js';
import { adminExpect } from '../infra/src/admin-client';
import { userAccessToken } from '../infra/src/user-token';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import { expectSchema } from './helpers/openapi-validator';
import {
  createApplication,
  createDemoWorld,
  createGuild,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';

/**
 * Issue 13 items 6-8 through the whole stack with @discordjs/rest and discord.js: the
 * permission bits up to 1 << 52 (PIN_MESSAGES, BYPASS_SLOWMODE, CREATE_GUILD_EXPRESSIONS,
 * CREATE_EVENTS, USE_EXTERNAL_APPS, SET_VOICE_CHANNEL_STATUS), @everyone's default
 * USE_EXTERNAL_APPS and the forced-ephemeral rule, pins behind PIN_MESSAGES with
 * CHANNEL_PINS_UPDATE, role `colors`, `flags_new`, a bot's group DM's `application_id`,
 * `GET /users/@me/guilds?shard=` for an app on large bot sharding (this stack's
 * max_concurrency is 4), the connections no longer listed, and `POST /guilds` refused.
 */
let stack: TestStack;
let world: DemoWorld;
let rest: REST;
const REDIRECT = 'https://fields.example/callback';
const MAX_CONCURRENCY = 4;

beforeAll(async () => {
  stack = await startTestStack({ env: { IDENTIFY_MAX_CONCURRENCY: String(MAX_CONCURRENCY) } });
  world = await createDemoWorld(stack);
  rest = new REST({ api: `${stack.apiUrl}/api`, version: '10', retries: 0 }).setToken(
    world.application.botToken,
  );
  const saved = await stack.admin('PATCH', `/admin/applications/${world.application.id}`, {
    redirect_uris: [REDIRECT],
  });
  expect(saved.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** The Discord error a @discordjs/rest call fails with. */
async function restError(call: Promise<unknown>): Promise<DiscordAPIError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DiscordAPIError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

async function bearer(scope: string): Promise<string> {
  const application = { id: world.application.id, clientSecret: world.application.clientSecret };
  const token = await userAccessToken(stack.apiUrl, stack.admin, {
    application,
    userId: world.user.id,
    scope,
    redirectUri: REDIRECT,
  });
  return `Bearer ${token}`;
}

describe('permission bits and fields', () => {
  const NEW_BITS =
    PermissionFlagsBits.PinMessages |
    PermissionFlagsBits.BypassSlowmode |
    PermissionFlagsBits.CreateGuildExpressions |
    PermissionFlagsBits.CreateEvents |
    PermissionFlagsBits.UseExternalApps |
    PermissionFlagsBits.SetVoiceChannelStatus;

  it('gives a new guild’s @everyone USE_EXTERNAL_APPS, and renders roles with colors', async () => {
    const guild = await createGuild(stack, { name: 'Defaults', owner_id: world.user.id });
    const everyone = (guild.roles as any[]).find((role) => role.id === guild.id);
    expectSchema('GuildRoleResponse', everyone);
    expect(everyone).toMatchObject({
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    });
    const bits = BigInt(everyone.permissions);
    expect(bits & PermissionFlagsBits.UseExternalApps).toBe(PermissionFlagsBits.UseExternalApps);
    expect(bits & PermissionFlagsBits.PinMessages).toBe(0n);
    expect(bits & PermissionFlagsBits.ManageMessages).toBe(0n);
  });

  it('keeps the new bits where permissions are written: roles, installs, command defaults', async () => {
    const role = await adminExpect(stack.admin, 201, 'POST', `/admin/guilds/${world.guild.id}/roles`, {
      name: 'new bits',
      permissions: String(NEW_BITS),
    });
    expectSchema('GuildRoleResponse', role);
    expect(role.permissions).toBe(String(NEW_BITS));

    const command = (await rest.post(Routes.applicationCommands(world.application.id), {
      body: {
        name: 'pinner',
        description: 'Pins',
        default_member_permissions: String(PermissionFlagsBits.PinMessages),
      },
    })) as any;
    expect(command.default_member_permissions).toBe(String(PermissionFlagsBits.PinMessages));

    const guild = await createGuild(stack, { name: 'Install bits', owner_id: world.user.id });
    const installed = await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: world.application.id,
      user_id: world.user.id,
      guild_id: guild.id,
      scope: 'bot',
      permissions: String(NEW_BITS),
    });
    expect(installed.status).toBe(200);
    const mine = (await rest.get(Routes.userGuilds(), {
      query: new URLSearchParams({ shard: '0' }),
    })) as any[];
    const all = [mine];
    for (let shard = 1; shard < MAX_CONCURRENCY; shard++) {
      all.push(
        (await rest.get(Routes.userGuilds(), {
          query: new URLSearchParams({ shard: String(shard) }),
        })) as any[],
      );
    }
    const listed = all.flat().find((g) => g.id === guild.id);
    expect(BigInt(listed.permissions) & NEW_BITS).toBe(NEW_BITS);
  });

  it('shows flags_new beside the 32-bit flags', async () => {
    const app = (await rest.get(Routes.currentApplication())) as any;
    expectSchema('PrivateApplicationResponse', app);
    expect(app.flags_new).toBe(String(app.flags));
  });

  it('marks the group DM a bot opens with its application', async () => {
    const friend = await createUser(stack, { username: 'gdm-friend' });
    const group = (await rest.post(Routes.userChannels(), {
      body: { recipients: [world.user.id, friend.id] },
    })) as any;
    expectSchema('PrivateGroupChannelResponse', group);
    expect(group).toMatchObject({ type: 3, application_id: world.application.id, managed: true });
    const session = (await stack.admin('POST', `/admin/users/${world.user.id}/sessions`)).body.token;
    const byUser = await api(stack, 'POST', '/users/@me/channels', {
      token: session,
      body: { recipients: [friend.id, world.application.id] },
    });
    expect(byUser.status).toBe(200);
    expect(byUser.body).not.toHaveProperty('application_id');
  });
});

describe('GET /users/@me/guilds?shard=', () => {
  const guildIds: string[] = [];

  beforeAll(async () => {
    guildIds.push(world.guild.id);
    for (let i = 0; i < 6; i++) {
      const guild = await createGuild(stack, { name: `Shard guild ${i}`, owner_id: world.user.id });
      await installApplication(stack, {
        applicationId: world.application.id,
        userId: world.user.id,
        guildId: guild.id,
      });
      guildIds.push(guild.id);
    }
  });

  it('reports max_concurrency 4 in GET /gateway/bot', async () => {
    const gateway = (await rest.get(Routes.gatewayBot())) as any;
    expect(gateway.session_start_limit.max_concurrency).toBe(MAX_CONCURRENCY);
  });

  it('requires shard from an app on large bot sharding', async () => {
    const error = await restError(rest.get(Routes.userGuilds()));
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 50035 });
    expect((error.rawError as any).errors).toEqual({
      shard: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    });
  });

  it('answers the guilds of each shard, (guild_id >> 22) % max_concurrency, with banner', async () => {
    const seen = new Set<string>();
    for (let shard = 0; shard < MAX_CONCURRENCY; shard++) {
      const page = (await rest.get(Routes.userGuilds(), {
        query: new URLSearchParams({ shard: String(shard), with_counts: 'true' }),
      })) as any[];
      for (const guild of page) {
        expectSchema('MyGuildResponse', guild);
        expect(guild.banner).toBeNull();
        expect(Number((BigInt(guild.id) >> 22n) % BigInt(MAX_CONCURRENCY))).toBe(shard);
        seen.add(guild.id);
      }
    }
    for (const id of guildIds) expect(seen.has(id)).toBe(true);
  });

  it.each([
    ['-1', 'NUMBER_TYPE_MIN'],
    ['4', 'NUMBER_TYPE_MAX'],
    ['abc', 'NUMBER_TYPE_COERCE'],
    ['1.5', 'NUMBER_TYPE_COERCE'],
    ['18446744073709551616', 'NUMBER_TYPE_MAX'],
    ['9'.repeat(30), 'NUMBER_TYPE_COERCE'],
  ])('refuses shard=%s with 50035 %s', async (shard, code) => {
    const answer = await api(stack, 'GET', `/users/@me/guilds?shard=${shard}`, {
      token: `Bot ${world.application.botToken}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 50035, errors: { shard: { _errors: [{ code }] } } });
  });

  it('needs no shard for a user’s Bearer token', async () => {
    const answer = await api(stack, 'GET', '/users/@me/guilds', { token: await bearer('guilds') });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThanOrEqual(guildIds.length);
  });
});

describe('GET /users/@me/connections', () => {
  it('no longer lists Riot Games and League of Legends connections, which can still be linked', async () => {
    for (const [type, id] of [
      ['riotgames', 'riot#1'],
      ['leagueoflegends', 'lol-1'],
      ['github', 'octocat'],
    ]) {
      const created = await stack.admin('POST', `/admin/users/${world.user.id}/connections`, {
        type,
        id,
        name: `${type} account`,
      });
      expect(created.status).toBe(201);
    }
    const answer = await api(stack, 'GET', '/users/@me/connections', { token: await bearer('connections') });
    expect(answer.status).toBe(200);
    expect(answer.body.map((c: { type: string }) => c.type)).toEqual(['github']);
    for (const connection of answer.body) expectSchema('ConnectedAccountResponse', connection);
  });
});

describe('POST /guilds', () => {
  it('is refused to a bot as Discord refuses it: 403 / 20001', async () => {
    const error = await restError(rest.post(Routes.guilds(), { body: { name: 'Bot Guild' } }));
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 403,
      code: 20001,
      message: 'Bots cannot use this endpoint',
    });
  });

  it('is not served to Bearer tokens or sessions (403 / 50001), and 401 without a valid token', async () => {
    const session = (await stack.admin('POST', `/admin/users/${world.user.id}/sessions`)).body.token;
    for (const token of [await bearer('identify guilds'), session]) {
      const answer = await api(stack, 'POST', '/guilds', { token, body: { name: 'Mine' } });
      expect(answer).toEqual({ status: 403, body: { code: 50001, message: 'Missing Access' } });
    }
    const anonymous = await api(stack, 'POST', '/guilds', { token: 'Bot nope', body: { name: 'Mine' } });
    expect(anonymous.status).toBe(401);
  });
});

describe('pins and USE_EXTERNAL_APPS', () => {
  let app: Awaited<ReturnType<typeof createApplication>>;
  let endpoint: InteractionsEndpoint;
  let member: ChatUser;
  let client: Client | undefined;
  let appRest: REST;

  beforeAll(async () => {
    app = await createApplication(stack, { name: 'Pin App', integration_types: [0, 1] });
    endpoint = await new InteractionsEndpoint(app.verify_key).start();
    expect(
      (
        await stack.admin('PATCH', `/admin/applications/${app.id}`, {
          interactions_endpoint_url: endpoint.url,
        })
      ).status,
    ).toBe(200);
    appRest = new REST({ api: `${stack.apiUrl}/api`, version: '10', retries: 0 }).setToken(app.bot_token);
    const someone = await createUser(stack, { username: 'pin-member' });
    expect(
      (await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${someone.id}`, {})).status,
    ).toBe(201);
    member = await (await ChatUser.open(stack, someone.id)).connect();
  });

  afterAll(async () => {
    await client?.destroy();
    member?.close();
    await endpoint?.stop();
  });

  /** Registers `name` (global, user-installable, guild context) and invokes it as `member`. */
  async function invoke(name: string): Promise<{ interaction: any; outcome: any }> {
    const command = (await appRest.post(Routes.applicationCommands(app.id), {
      body: { name, description: 'Answers', integration_types: [0, 1], contexts: [0] },
    })) as any;
    const from = endpoint.received.length;
    const invoked = await member.invoke({
      type: 2,
      application_id: app.id,
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      data: { id: command.id, name, type: 1, version: command.version },
    });
    expect(invoked.status).toBe(200);
    return { interaction: await endpoint.next(from), outcome: invoked.body };
  }

  it('forces a user-installed app’s replies ephemeral where the invoker lacks USE_EXTERNAL_APPS', async () => {
    const authorized = await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: app.id,
      user_id: member.userId,
      scope: 'applications.commands',
      integration_type: 1,
    });
    expect(authorized.status).toBe(200);
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'public please' } } });

    // @everyone has USE_EXTERNAL_APPS by default: the reply is public.
    const open = await invoke('reply');
    expect(open.interaction).toMatchObject({
      context: 0,
      authorizing_integration_owners: { '1': member.userId },
      app_permissions: expect.any(String),
    });
    expect(BigInt(open.interaction.member.permissions) & PermissionFlagsBits.UseExternalApps).toBe(
      PermissionFlagsBits.UseExternalApps,
    );
    expect(open.outcome.messages[0].flags & 64).toBe(0);

    // Without it the same reply, and its follow-up, are ephemeral.
    const everyone = (await guildRoles()).find((role) => role.id === world.guild.id);
    const without = BigInt(everyone.permissions) & ~PermissionFlagsBits.UseExternalApps;
    await adminExpect(stack.admin, 200, 'PATCH', `/admin/guilds/${world.guild.id}/roles/${world.guild.id}`, {
      permissions: String(without),
    });
    try {
      const closed = await invoke('reply2');
      expect(BigInt(closed.interaction.member.permissions) & PermissionFlagsBits.UseExternalApps).toBe(0n);
      expect(closed.outcome.messages[0].flags & 64).toBe(64);
      const followup = await api(stack, 'POST', `/webhooks/${app.id}/${closed.interaction.token}`, {
        body: { content: 'also public please' },
      });
      expect(followup.status).toBe(200);
      expect(followup.body.flags & 64).toBe(64);
    } finally {
      await adminExpect(
        stack.admin,
        200,
        'PATCH',
        `/admin/guilds/${world.guild.id}/roles/${world.guild.id}`,
        {
          permissions: everyone.permissions,
        },
      );
    }
  });

  /** The demo guild's roles, as an admin PATCH of the guild that keeps its name answers them. */
  async function guildRoles(): Promise<any[]> {
    const guild = await adminExpect(stack.admin, 200, 'PATCH', `/admin/guilds/${world.guild.id}`, {
      name: world.guild.name,
    });
    return guild.roles as any[];
  }

  it('pins with PIN_MESSAGES only (MANAGE_MESSAGES is not enough), with CHANNEL_PINS_UPDATE', async () => {
    // Installed in the guild with MANAGE_MESSAGES: its managed role holds no PIN_MESSAGES.
    await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: app.id,
      user_id: world.user.id,
      guild_id: world.guild.id,
      scope: 'bot applications.commands',
      permissions: String(PermissionFlagsBits.ManageMessages),
    });
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'pin this' } } });
    const { outcome } = await invoke('pinme');
    const message = outcome.messages[0];
    const pinPath = `/channels/${world.channel.id}/messages/pins/${message.id}` as const;

    const refused = await restError(appRest.put(pinPath));
    expect({ status: refused.status, code: refused.code }).toEqual({ status: 403, code: 50013 });

    // Reinstalled with PIN_MESSAGES: its managed role now grants it.
    await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: app.id,
      user_id: world.user.id,
      guild_id: world.guild.id,
      scope: 'bot applications.commands',
      permissions: String(PermissionFlagsBits.PinMessages),
    });
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
    const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
    await client.login(app.bot_token);
    await ready;
    // The guild (and its channels) reach the cache with GUILD_CREATE, before or after READY.
    const deadline = Date.now() + 10_000;
    while (!client.channels.cache.has(world.channel.id) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const channel = client.channels.cache.get(world.channel.id) as TextChannel;
    const pinsUpdated = new Promise<{ channelId: string; time: unknown }>((resolve) =>
      client!.on(Events.ChannelPinsUpdate, (updated, time) => resolve({ channelId: updated.id, time })),
    );
    const seen = member.gateway!.received.length;

    await appRest.put(pinPath);
    const update = await pinsUpdated;
    expect(update.channelId).toBe(channel.id);
    // discord.js hands the time of the last pin over as epoch milliseconds.
    expect(Math.abs(Number(update.time) - Date.now())).toBeLessThan(60_000);
    const toMember = await member.gateway!.next((p) => p.t === 'CHANNEL_PINS_UPDATE', 5000, seen);
    expect(toMember.d).toMatchObject({
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      last_pin_timestamp: expect.any(String),
    });

    const pins = (await appRest.get(`/channels/${world.channel.id}/messages/pins`)) as any;
    expectSchema('PinnedMessagesResponse', pins);
    expect(pins.has_more).toBe(false);
    expect(pins.items.map((item: any) => item.message.id)).toEqual([message.id]);
    expect(pins.items[0].message.pinned).toBe(true);
    const deprecated = (await appRest.get(`/channels/${world.channel.id}/pins`)) as any[];
    expect(deprecated.map((m) => m.id)).toEqual([message.id]);
    for (const m of deprecated) expectSchema('MessageResponse', m);

    // Unpinned through the deprecated path: the list is empty again.
    await appRest.delete(`/channels/${world.channel.id}/pins/${message.id}`);
    expect(((await appRest.get(`/channels/${world.channel.id}/messages/pins`)) as any).items).toEqual([]);
  });

  it('answers unknown messages, channels and ids as Discord does', async () => {
    const bot = `Bot ${app.bot_token}`;
    const cases: Array<[string, string, number, number]> = [
      ['PUT', `/channels/${world.channel.id}/messages/pins/99999999999999999`, 404, 10008],
      ['PUT', `/channels/99999999999999999/messages/pins/99999999999999999`, 404, 10003],
      ['PUT', `/channels/${world.channel.id}/messages/pins/18446744073709551616`, 400, 50035],
      ['DELETE', `/channels/abc/messages/pins/1`, 400, 50035],
      ['GET', `/channels/${world.channel.id}/messages/pins?limit=51`, 400, 50035],
      ['GET', `/channels/${world.channel.id}/messages/pins?before=yesterday`, 400, 50035],
      ['GET', `/channels/18446744073709551616/pins`, 400, 50035],
    ];
    for (const [method, path, status, code] of cases) {
      const answer = await api(stack, method, path, { token: bot });
      expect({ path, status: answer.status, code: answer.body?.code }).toEqual({ path, status, code });
    }
    // A foreign guild's channel: the bot is not in it.
    const foreign = await createGuild(stack, { name: 'Foreign', owner_id: world.user.id });
    const foreignChannel = await adminExpect(
      stack.admin,
      201,
      'POST',
      `/admin/guilds/${foreign.id}/channels`,
      {
        name: 'elsewhere',
        type: 0,
      },
    );
    const answer = await api(stack, 'GET', `/channels/${foreignChannel.id}/messages/pins`, { token: bot });
    expect(answer).toEqual({ status: 403, body: { code: 50001, message: 'Missing Access' } });
    expect(
      (
        await api(stack, 'GET', `/channels/${world.channel.id}/messages/pins`, {
          token: await bearer('identify'),
        })
      ).status,
    ).toBe(401);
  });
});
