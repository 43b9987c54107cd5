import {
  AutoModerationActionType,
  AutoModerationRuleEventType,
  AutoModerationRuleTriggerType,
  Client,
  GatewayIntentBits,
} from 'discord.js';
import { adminExpect } from '../infra/src/admin-client';
import { GatewayTestClient, type Received } from './helpers/gateway-client';
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

/**
 * AutoMod through the whole stack (api-gateway → interactions → permissions; events →
 * dispatcher): a bot with MANAGE_GUILD manages a guild's rules (also through discord.js'
 * `guild.autoModerationRules`), a member's messages and edits are judged, each action runs
 * (BLOCK_MESSAGE 400 / 200000 with nothing written, SEND_ALERT_MESSAGE's type 24 message,
 * TIMEOUT), and the AUTO_MODERATION_* events reach the bots with MANAGE_GUILD and the intent
 * only.
 */
let stack: TestStack;
let world: DemoWorld;
let bot: string;
let member: ChatUser;
let trusted: ChatUser;
let alerts: string;
let botGateway: GatewayTestClient;
let otherGateway: GatewayTestClient;
let noIntentGateway: GatewayTestClient;
let trustedRole: string;

const MANAGE_GUILD = 1n << 5n;
const MODERATE_MEMBERS = 1n << 40n;
const AUTO_MODERATION_CONFIGURATION = 1 << 20;
const AUTO_MODERATION_EXECUTION = 1 << 21;
const GUILDS = 1 << 0;
const rulesOf = (guildId: string) => `/guilds/${guildId}/auto-moderation/rules`;

async function openGateway(token: string, intents: number): Promise<GatewayTestClient> {
  const gateway = await GatewayTestClient.connect(`ws://127.0.0.1:${stack.ports.gateway}`);
  await gateway.identify(token, { intents });
  await gateway.dispatch('GUILD_CREATE', 10_000);
  return gateway;
}

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  bot = `Bot ${world.application.botToken}`;
  // The bot's install grants it MANAGE_GUILD and MODERATE_MEMBERS (its managed role).
  await adminExpect(stack.admin, 200, 'POST', '/admin/oauth2/authorize', {
    client_id: world.application.id,
    user_id: world.user.id,
    scope: 'bot applications.commands',
    guild_id: world.guild.id,
    permissions: String(MANAGE_GUILD | MODERATE_MEMBERS),
  });
  // Another bot of the guild without MANAGE_GUILD: it receives no AutoMod event.
  const other = await createApplication(stack, { name: 'Other', owner_id: world.user.id });
  await installApplication(stack, {
    applicationId: other.id,
    userId: world.user.id,
    guildId: world.guild.id,
  });
  const alertChannel = await adminExpect(
    stack.admin,
    201,
    'POST',
    `/admin/guilds/${world.guild.id}/channels`,
    {
      name: 'mod-log',
      type: 0,
    },
  );
  alerts = alertChannel.id;
  const role = await adminExpect(stack.admin, 201, 'POST', `/admin/guilds/${world.guild.id}/roles`, {
    name: 'trusted',
    permissions: '0',
  });
  trustedRole = role.id;
  const user = await createUser(stack, { username: 'member' });
  await adminExpect(stack.admin, 201, 'PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, {});
  member = await ChatUser.open(stack, user.id);
  const trustedUser = await createUser(stack, { username: 'trusted' });
  await adminExpect(stack.admin, 201, 'PUT', `/admin/guilds/${world.guild.id}/members/${trustedUser.id}`, {
    roles: [trustedRole],
  });
  trusted = await ChatUser.open(stack, trustedUser.id);
  botGateway = await openGateway(
    world.application.botToken,
    GUILDS | AUTO_MODERATION_CONFIGURATION | AUTO_MODERATION_EXECUTION,
  );
  otherGateway = await openGateway(
    other.bot_token,
    GUILDS | AUTO_MODERATION_CONFIGURATION | AUTO_MODERATION_EXECUTION,
  );
  // A third bot with MANAGE_GUILD whose session did not ask for the AutoMod intents.
  const quiet = await createApplication(stack, { name: 'Quiet', owner_id: world.user.id });
  await adminExpect(stack.admin, 200, 'POST', '/admin/oauth2/authorize', {
    client_id: quiet.id,
    user_id: world.user.id,
    scope: 'bot applications.commands',
    guild_id: world.guild.id,
    permissions: String(MANAGE_GUILD),
  });
  noIntentGateway = await openGateway(quiet.bot_token, GUILDS);
}, 300_000);

afterAll(async () => {
  botGateway?.close(1000);
  otherGateway?.close(1000);
  noIntentGateway?.close(1000);
  await stack?.stop();
});

/** Creates a rule as the bot; fails the test on anything but 200. */
async function createRule(body: Record<string, unknown>): Promise<any> {
  const answer = await api(stack, 'POST', rulesOf(world.guild.id), { token: bot, body });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function deleteRule(id: string): Promise<void> {
  expect((await api(stack, 'DELETE', `${rulesOf(world.guild.id)}/${id}`, { token: bot })).status).toBe(204);
}

const send = (user: ChatUser, content: string, channelId = world.channel.id) =>
  api(stack, 'POST', `/channels/${channelId}/messages`, { token: user.token, body: { content } });

const history = async (channelId: string) =>
  (await api(stack, 'GET', `/channels/${channelId}/messages?limit=100`, { token: bot })).body as any[];

describe('rules', () => {
  it('creates, lists, gets, updates and deletes a rule, with the configuration events to the bot with MANAGE_GUILD', async () => {
    const seen = botGateway.received.length;
    const response = await fetch(`${stack.apiUrl}/api/v10${rulesOf(world.guild.id)}`, {
      method: 'POST',
      headers: {
        Authorization: bot,
        'Content-Type': 'application/json',
        'X-Audit-Log-Reason': encodeURIComponent('no cats, é'),
      },
      body: JSON.stringify({
        name: 'no cats',
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: ['cat'], regex_patterns: ['d[o0]g'] },
        actions: [{ type: 1, metadata: { custom_message: 'be nice' } }],
      }),
    });
    expect(response.status).toBe(200);
    const rule = (await response.json()) as any;
    expect(rule).toEqual({
      id: expect.any(String),
      guild_id: world.guild.id,
      creator_id: world.application.id,
      name: 'no cats',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['cat'], regex_patterns: ['d[o0]g'], allow_list: [] },
      actions: [{ type: 1, metadata: { custom_message: 'be nice' } }],
      enabled: false,
      exempt_roles: [],
      exempt_channels: [],
    });
    const created = await botGateway.next((p) => p.t === 'AUTO_MODERATION_RULE_CREATE', 10_000, seen);
    expect(created.d).toEqual(rule);

    expect((await api(stack, 'GET', rulesOf(world.guild.id), { token: bot })).body).toEqual([rule]);
    expect((await api(stack, 'GET', `${rulesOf(world.guild.id)}/${rule.id}`, { token: bot })).body).toEqual(
      rule,
    );
    const updated = await api(stack, 'PATCH', `${rulesOf(world.guild.id)}/${rule.id}`, {
      token: bot,
      body: { enabled: true, exempt_roles: [trustedRole] },
    });
    expect(updated).toEqual({ status: 200, body: { ...rule, enabled: true, exempt_roles: [trustedRole] } });
    expect((await botGateway.next((p) => p.t === 'AUTO_MODERATION_RULE_UPDATE', 10_000, seen)).d).toEqual(
      updated.body,
    );

    await deleteRule(rule.id);
    expect((await botGateway.next((p) => p.t === 'AUTO_MODERATION_RULE_DELETE', 10_000, seen)).d).toEqual(
      updated.body,
    );
    expect((await api(stack, 'GET', `${rulesOf(world.guild.id)}/${rule.id}`, { token: bot })).status).toBe(
      404,
    );
    // Neither the bot without MANAGE_GUILD nor a session without the intent heard of it.
    expect(otherGateway.received.filter((p) => String(p.t).startsWith('AUTO_MODERATION'))).toEqual([]);
    expect(noIntentGateway.received.filter((p) => String(p.t).startsWith('AUTO_MODERATION'))).toEqual([]);
  });

  it('refuses a caller without MANAGE_GUILD (50013) and a non-member (50001)', async () => {
    const list = await api(stack, 'GET', rulesOf(world.guild.id), { token: member.token });
    expect(list).toEqual({
      status: 403,
      body: { code: 50013, message: 'Missing Permissions: MANAGE_GUILD' },
    });
    const outsider = await ChatUser.open(stack, (await createUser(stack, { username: 'outsider' })).id);
    expect((await api(stack, 'GET', rulesOf(world.guild.id), { token: outsider.token })).body.code).toBe(
      50001,
    );
    expect((await api(stack, 'GET', rulesOf('99999999999999999'), { token: bot })).body.code).toBe(10004);
  });

  it('allows one MENTION_SPAM rule, and refuses another guild’s channel and role', async () => {
    const spam = await createRule({
      name: 'mentions',
      event_type: 1,
      trigger_type: 5,
      trigger_metadata: { mention_total_limit: 50, mention_raid_protection_enabled: true },
      actions: [{ type: 1 }],
    });
    const again = await api(stack, 'POST', rulesOf(world.guild.id), {
      token: bot,
      body: { name: 'again', event_type: 1, trigger_type: 5, actions: [{ type: 1 }] },
    });
    expect(again.status).toBe(400);
    expect(again.body.errors.trigger_type._errors[0].code).toBe('AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED');
    await deleteRule(spam.id);

    const foreign = await createDemoWorld(stack, {
      username: 'o2',
      guildName: 'Elsewhere',
      applicationName: 'A2',
    });
    const refused = await api(stack, 'POST', rulesOf(world.guild.id), {
      token: bot,
      body: {
        name: 'x',
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: ['x'] },
        exempt_roles: [foreign.role.id],
        actions: [{ type: 2, metadata: { channel_id: foreign.channel.id } }],
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.exempt_roles['0']._errors[0].code).toBe('UNKNOWN_ROLE');
    expect(refused.body.errors.actions['0'].metadata.channel_id._errors[0].code).toBe('UNKNOWN_CHANNEL');
    expect((await api(stack, 'GET', rulesOf(world.guild.id), { token: bot })).body).toEqual([]);
  });
});

describe('actions', () => {
  let rule: any;
  beforeAll(async () => {
    rule = await createRule({
      name: 'no cats',
      event_type: 1,
      trigger_type: 1,
      enabled: true,
      trigger_metadata: { keyword_filter: ['cat*'], regex_patterns: ['(a+)+\\$'], allow_list: ['catalog'] },
      exempt_roles: [trustedRole],
      actions: [
        { type: 1, metadata: { custom_message: 'no cats here' } },
        { type: 2, metadata: { channel_id: alerts } },
      ],
    });
  });
  afterAll(async () => {
    await deleteRule(rule.id);
  });

  it('blocks a member’s message with 400 / 200000, writes nothing in the channel, alerts and announces', async () => {
    const seen = botGateway.received.length;
    const before = (await history(world.channel.id)).length;
    const blocked = await send(member, 'look at my Cats');
    expect(blocked).toEqual({
      status: 400,
      body: { code: 200000, message: 'Message was blocked by automatic moderation' },
    });
    expect(await history(world.channel.id)).toHaveLength(before);

    const alert = (await history(alerts))[0];
    expect(alert).toMatchObject({
      type: 24,
      channel_id: alerts,
      author: { id: member.userId },
      embeds: [{ type: 'auto_moderation_message', description: 'look at my Cats' }],
    });
    const executions: Received[] = [];
    for (let i = 0; i < 2; i += 1) {
      const last = executions.at(-1);
      const from: number = last === undefined ? seen : botGateway.received.indexOf(last) + 1;
      executions.push(await botGateway.next((p) => p.t === 'AUTO_MODERATION_ACTION_EXECUTION', 10_000, from));
    }
    const payloads = executions.map((p) => p.d);
    // The bot did not ask for MESSAGE_CONTENT: content and matched_content are blank.
    expect(payloads).toEqual(
      expect.arrayContaining([
        {
          guild_id: world.guild.id,
          action: { type: 1, metadata: { custom_message: 'no cats here' } },
          rule_id: rule.id,
          rule_trigger_type: 1,
          user_id: member.userId,
          channel_id: world.channel.id,
          content: '',
          matched_keyword: 'cat*',
          matched_content: '',
        },
        expect.objectContaining({
          action: { type: 2, metadata: { channel_id: alerts } },
          alert_system_message_id: alert.id,
        }),
      ]),
    );
    expect(payloads.every((d: any) => !('message_id' in d))).toBe(true);
  });

  it('lets through the allow list, a catastrophic-backtracking pattern’s text, the exempt role, the owner and bots', async () => {
    expect((await send(member, 'see the catalog')).status).toBe(200);
    expect((await send(member, `${'a'.repeat(1999)}!`)).status).toBe(200);
    expect((await send(trusted, 'cats')).status).toBe(200);
    const owner = await ChatUser.open(stack, world.user.id);
    expect((await send(owner, 'cats')).status).toBe(200);
    expect(
      (
        await api(stack, 'POST', `/channels/${world.channel.id}/messages`, {
          token: bot,
          body: { content: 'cats' },
        })
      ).status,
    ).toBe(200);
  });

  it('blocks an edit to a blocked word and keeps the message as it was', async () => {
    const sent = await send(member, 'dogs are fine');
    expect(sent.status).toBe(200);
    const edit = await api(stack, 'PATCH', `/channels/${world.channel.id}/messages/${sent.body.id}`, {
      token: member.token,
      body: { content: 'cats are fine' },
    });
    expect(edit.body.code).toBe(200000);
    const read = await api(stack, 'GET', `/channels/${world.channel.id}/messages/${sent.body.id}`, {
      token: bot,
    });
    expect(read.body.content).toBe('dogs are fine');
  });
});

describe('alert only, mention spam and presets', () => {
  it('keeps a flagged message, posts its alert and names it in the execution', async () => {
    const rule = await createRule({
      name: 'flag spam',
      event_type: 1,
      trigger_type: 5,
      enabled: true,
      trigger_metadata: { mention_total_limit: 2 },
      actions: [{ type: 2, metadata: { channel_id: alerts } }],
    });
    const seen = botGateway.received.length;
    const kept = await send(member, '<@1> <@2> <@&3>');
    expect(kept.status).toBe(200);
    // The earlier tests' executions travel through the outbox too and may still arrive:
    // this rule's own is the one to read.
    const execution = await botGateway.next(
      (p) => p.t === 'AUTO_MODERATION_ACTION_EXECUTION' && p.d.rule_id === rule.id,
      10_000,
      seen,
    );
    expect(execution.d).toMatchObject({
      rule_id: rule.id,
      rule_trigger_type: 5,
      message_id: kept.body.id,
      matched_keyword: null,
    });
    const alert = (await history(alerts)).find((m) => m.id === execution.d.alert_system_message_id);
    expect(alert.embeds[0].fields).toEqual(
      expect.arrayContaining([{ name: 'flagged_message_id', value: kept.body.id, inline: false }]),
    );
    expect((await send(member, '<@1> <@2>')).status).toBe(200);
    await deleteRule(rule.id);
  });

  it('blocks a built-in preset word', async () => {
    const rule = await createRule({
      name: 'presets',
      event_type: 1,
      trigger_type: 4,
      enabled: true,
      trigger_metadata: { presets: [1] },
      actions: [{ type: 1 }],
    });
    expect((await send(member, 'oh shit')).body.code).toBe(200000);
    expect((await send(member, 'oh shucks')).status).toBe(200);
    await deleteRule(rule.id);
  });
});

describe('TIMEOUT', () => {
  it('times the sender out through permissions: their next message is refused until the bot lifts it', async () => {
    const user = await createUser(stack, { username: 'shouter' });
    await adminExpect(stack.admin, 201, 'PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, {});
    const shouter = await ChatUser.open(stack, user.id);
    const rule = await createRule({
      name: 'no shouting',
      event_type: 1,
      trigger_type: 1,
      enabled: true,
      trigger_metadata: { keyword_filter: ['shout*'] },
      actions: [{ type: 3, metadata: { duration_seconds: 600 } }],
    });
    const seen = botGateway.received.length;
    const before = Date.now();
    // TIMEOUT alone keeps the message: it is written, and its sender timed out.
    const kept = await send(shouter, 'SHOUTING');
    expect(kept.status).toBe(200);
    const execution = await botGateway.next(
      (p) => p.t === 'AUTO_MODERATION_ACTION_EXECUTION' && p.d.rule_id === rule.id,
      10_000,
      seen,
    );
    expect(execution.d).toMatchObject({
      action: { type: 3, metadata: { duration_seconds: 600 } },
      user_id: user.id,
      message_id: kept.body.id,
    });

    const refused = await send(shouter, 'quietly now');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50013);
    // The member as it stands (an empty Modify Guild Member changes nothing): timed out for the rule's 600 s.
    const shown = await api(stack, 'PATCH', `/guilds/${world.guild.id}/members/${user.id}`, {
      token: bot,
      body: {},
    });
    const until = Date.parse(shown.body.communication_disabled_until);
    expect(until).toBeGreaterThanOrEqual(before + 600_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 600_000);

    const patched = await api(stack, 'PATCH', `/guilds/${world.guild.id}/members/${user.id}`, {
      token: bot,
      body: { communication_disabled_until: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      user: { id: user.id, username: 'shouter' },
      communication_disabled_until: null,
    });
    expect((await send(shouter, 'quietly now')).status).toBe(200);
    await deleteRule(rule.id);
  });
});

describe('discord.js', () => {
  it('creates and fetches a rule with guild.autoModerationRules', async () => {
    const client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.AutoModerationConfiguration],
      rest: { api: `${stack.apiUrl}/api` },
    });
    try {
      const ready = new Promise<void>((resolve) => client.once('ready', () => resolve()));
      await client.login(world.application.botToken);
      await ready;
      // The guild arrives with its GUILD_CREATE.
      const deadline = Date.now() + 10_000;
      while (!client.guilds.cache.has(world.guild.id) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const guild = client.guilds.cache.get(world.guild.id)!;
      const rule = await guild.autoModerationRules.create({
        name: 'discord.js rule',
        eventType: AutoModerationRuleEventType.MessageSend,
        triggerType: AutoModerationRuleTriggerType.Keyword,
        triggerMetadata: { keywordFilter: ['*spoiler*'] },
        actions: [{ type: AutoModerationActionType.BlockMessage }],
        enabled: true,
        reason: 'testing',
      });
      expect(rule.triggerMetadata.keywordFilter).toEqual(['*spoiler*']);
      const fetched = await guild.autoModerationRules.fetch({ autoModerationRule: rule.id, force: true });
      expect(fetched.name).toBe('discord.js rule');
      expect((await send(member, 'SPOILERS ahead')).body.code).toBe(200000);
      await rule.delete();
    } finally {
      await client.destroy();
    }
  });
});
