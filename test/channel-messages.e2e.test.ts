import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { adminExpect } from '../infra/src/admin-client';
import type { GatewayTestClient } from './helpers/gateway-client';
import { expectSchema } from './helpers/openapi-validator';
import {
  createDemoWorld,
  createGuild,
  createUser,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';
import { GatewayTestClient as Gateway } from './helpers/gateway-client';

/**
 * The channel message routes through the whole stack (api-gateway → interactions →
 * permissions, oauth; events → dispatcher): a bot (through @discordjs/rest, as discord.js
 * sends them) and a member's chat session send, list, read, edit and delete messages; the
 * member's gateway session and the bot's see MESSAGE_CREATE / UPDATE / DELETE, the bot's
 * without content unless it asked for MESSAGE_CONTENT or is mentioned; bad input answers
 * Discord's bodies.
 */
let stack: TestStack;
let world: DemoWorld;
let rest: REST;
let bot: string;
let member: ChatUser;
let memberId: string;

/** VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY as Discord numbers them. */
const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const MANAGE_MESSAGES = 1n << 13n;
const READ_MESSAGE_HISTORY = 1n << 16n;

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  bot = `Bot ${world.application.botToken}`;
  rest = new REST({ api: `${stack.apiUrl}/api`, version: '10' }).setToken(world.application.botToken);
  const user = await createUser(stack, { username: 'member' });
  memberId = user.id;
  await adminExpect(stack.admin, 201, 'PUT', `/admin/guilds/${world.guild.id}/members/${memberId}`, {});
  member = await ChatUser.open(stack, memberId);
}, 120_000);

let client: Client | undefined;

afterAll(async () => {
  member?.close();
  await client?.destroy();
  await stack?.stop();
});

const messagesOf = (channelId: string) => `/channels/${channelId}/messages`;

/** A text channel of the demo guild with `permission_overwrites`. */
async function channelWith(overwrites: unknown[]): Promise<string> {
  const channel = await adminExpect(stack.admin, 201, 'POST', `/admin/guilds/${world.guild.id}/channels`, {
    name: `c${Date.now()}`,
    type: 0,
    permission_overwrites: overwrites,
  });
  return channel.id as string;
}

/** An overwrite of @everyone (its id is the guild's) denying `deny`. */
const denyEveryone = (deny: bigint) => ({ id: world.guild.id, type: 0, allow: '0', deny: String(deny) });

describe('Create Message', () => {
  it('posts a bot message as discord.js sends it, nonce echoed, and a member replies to it', async () => {
    const sent = (await rest.post(Routes.channelMessages(world.channel.id), {
      body: {
        content: 'hello <@' + memberId + '>',
        embeds: [{ title: 'Welcome', description: 'to the guild' }],
        nonce: '1234567890',
        allowed_mentions: { parse: ['users'] },
      },
    })) as any;
    expectSchema('MessageResponse', sent);
    expect(sent).toMatchObject({
      type: 0,
      channel_id: world.channel.id,
      content: `hello <@${memberId}>`,
      author: { id: world.application.id, bot: true },
      embeds: [{ type: 'rich', title: 'Welcome', description: 'to the guild' }],
      nonce: '1234567890',
      pinned: false,
      tts: false,
      edited_timestamp: null,
      mention_everyone: false,
    });
    expect(sent.mentions.map((u: any) => u.id)).toEqual([memberId]);
    expect(sent.author).not.toHaveProperty('email');

    const reply = await api(stack, 'POST', messagesOf(world.channel.id), {
      token: member.token,
      body: { content: 'thanks', message_reference: { message_id: sent.id } },
    });
    expect(reply.status).toBe(200);
    expectSchema('MessageResponse', reply.body);
    expect(reply.body).toMatchObject({
      type: 19,
      author: { id: memberId },
      message_reference: {
        type: 0,
        message_id: sent.id,
        channel_id: world.channel.id,
        guild_id: world.guild.id,
      },
      referenced_message: { id: sent.id, content: sent.content },
    });
    // Without allowed_mentions a reply pings the replied message's author.
    expect(reply.body.mentions.map((u: any) => u.id)).toEqual([world.application.id]);
    // The nonce is not stored: a read does not carry it.
    const read = (await rest.get(Routes.channelMessage(world.channel.id, sent.id))) as any;
    expect(read).not.toHaveProperty('nonce');
    expect(read.id).toBe(sent.id);
  });

  it('answers the first message for an enforced nonce sent twice, and a new one without enforce_nonce', async () => {
    const body = { content: 'once', nonce: 'enforced-1', enforce_nonce: true };
    const first = (await rest.post(Routes.channelMessages(world.channel.id), { body })) as any;
    const again = (await rest.post(Routes.channelMessages(world.channel.id), { body })) as any;
    expect(again.id).toBe(first.id);
    const loose = (await rest.post(Routes.channelMessages(world.channel.id), {
      body: { content: 'once', nonce: 'enforced-1' },
    })) as any;
    expect(loose.id).not.toBe(first.id);
  });

  it('answers an unknown reply target with 50035, and sends a normal message when fail_if_not_exists is false', async () => {
    const unknown = await api(stack, 'POST', messagesOf(world.channel.id), {
      token: bot,
      body: { content: 'x', message_reference: { message_id: '99999999999999999' } },
    });
    expect(unknown).toEqual({
      status: 400,
      body: {
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          message_reference: {
            _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }],
          },
        },
      },
    });
    const loose = await api(stack, 'POST', messagesOf(world.channel.id), {
      token: bot,
      body: {
        content: 'x',
        message_reference: { message_id: '99999999999999999', fail_if_not_exists: false },
      },
    });
    expect(loose.status).toBe(200);
    expect(loose.body.type).toBe(0);
    expect(loose.body).not.toHaveProperty('message_reference');
  });

  it('refuses bad bodies with Discord’s codes, never a 5xx', async () => {
    const cases: Array<[unknown, number, number, string?]> = [
      [{}, 400, 50006],
      [{ content: '   ' }, 400, 50006],
      [{ content: 'x'.repeat(2001) }, 400, 50035, 'content'],
      [{ embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }, 400, 50035, 'embeds'],
      [
        { embeds: [{ description: 'd'.repeat(4096) }, { description: 'd'.repeat(1905) }] },
        400,
        50035,
        'embeds',
      ],
      [{ content: 'x', flags: 64 }, 400, 50035, 'flags'],
      [{ content: 'x', nonce: 'n'.repeat(26) }, 400, 50035, 'nonce'],
      [{ content: 'x', nonce: {} }, 400, 50035, 'nonce'],
      [{ content: 'x', sticker_ids: ['99999999999999999'] }, 400, 50081],
      [{ content: 'x', message_reference: { type: 2, message_id: '1', channel_id: '1' } }, 400, 50035],
      [{ content: 'x', message_reference: { message_id: '18446744073709551616' } }, 400, 50035],
      [{ content: 'x', allowed_mentions: { parse: ['users'], users: ['1'] } }, 400, 50035],
      [{ content: 'a\u0000b' }, 400, 50035],
      [{ content: 7 }, 400, 50035, 'content'],
      [[1, 2], 400, 50035],
    ];
    for (const [body, status, code, field] of cases) {
      const answer = await api(stack, 'POST', messagesOf(world.channel.id), { token: bot, body });
      expect({ body, status: answer.status, code: answer.body?.code }).toEqual({ body, status, code });
      if (field) expect(Object.keys(answer.body.errors)).toContain(field);
    }
    // Malformed JSON and a megabyte of digits.
    const malformed = await fetch(`${stack.apiUrl}/api/v10${messagesOf(world.channel.id)}`, {
      method: 'POST',
      headers: { Authorization: bot, 'Content-Type': 'application/json' },
      body: '{"content": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as any).code).toBe(50109);
    const huge = await api(stack, 'POST', messagesOf(world.channel.id), {
      token: bot,
      body: { content: '9'.repeat(1024 * 1024) },
    });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
  });

  it('takes files as multipart, served at their URL, and refuses them without ATTACH_FILES', async () => {
    const upload = async (channelId: string, token: string, payload: unknown) => {
      const form = new FormData();
      form.append('payload_json', JSON.stringify(payload));
      form.append('files[0]', new Blob(['hello file'], { type: 'text/plain' }), 'hello.txt');
      const response = await fetch(`${stack.apiUrl}/api/v10${messagesOf(channelId)}`, {
        method: 'POST',
        headers: { Authorization: token },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const sent = await upload(world.channel.id, bot, {
      content: 'a file',
      attachments: [{ id: 0, description: 'greeting' }],
    });
    expect(sent.status).toBe(200);
    expectSchema('MessageResponse', sent.body);
    const [attachment] = sent.body.attachments;
    expect(attachment).toMatchObject({ filename: 'hello.txt', description: 'greeting', size: 10 });
    const served = await fetch(attachment.url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('hello file');
    // Without ATTACH_FILES the files are refused before a byte is stored.
    const noFiles = await channelWith([denyEveryone(1n << 15n)]);
    expect(await upload(noFiles, member.token, { content: 'x' })).toMatchObject({
      status: 403,
      body: { code: 50013, message: 'Missing Permissions: ATTACH_FILES' },
    });
  });

  it('forwards a snapshot, and refuses a bot what it cannot read with 160014', async () => {
    const elsewhere = await channelWith([]);
    const original = (
      await api(stack, 'POST', messagesOf(world.channel.id), {
        token: member.token,
        body: { content: 'forward this' },
      })
    ).body;
    const reference = { type: 1, message_id: original.id, channel_id: world.channel.id };
    const forwarded = await api(stack, 'POST', messagesOf(elsewhere), {
      token: member.token,
      body: { message_reference: reference },
    });
    expect(forwarded.status).toBe(200);
    // Not checked against MessageResponse: the OAS's MessageReferenceType lacks FORWARD (1).
    expect(forwarded.body).toMatchObject({
      type: 0,
      content: '',
      flags: 1 << 14,
      message_reference: {
        type: 1,
        message_id: original.id,
        channel_id: world.channel.id,
        guild_id: world.guild.id,
      },
      message_snapshots: [{ message: { content: 'forward this', type: 0 } }],
    });
    // The bot has no MESSAGE_CONTENT toggle: a member's message it is not mentioned in is unreadable to it.
    expect(
      await api(stack, 'POST', messagesOf(elsewhere), { token: bot, body: { message_reference: reference } }),
    ).toEqual({
      status: 403,
      body: { code: 160014, message: 'You cannot forward a message whose content you cannot read' },
    });
    const own = (await rest.post(Routes.channelMessages(world.channel.id), {
      body: { content: 'mine' },
    })) as any;
    const ownForward = (await rest.post(Routes.channelMessages(elsewhere), {
      body: { message_reference: { type: 1, message_id: own.id, channel_id: world.channel.id } },
    })) as any;
    expect(ownForward.message_snapshots[0].message.content).toBe('mine');

    const hidden = await channelWith([denyEveryone(VIEW_CHANNEL)]);
    const owner = await ChatUser.open(stack, world.user.id);
    const secret = (
      await api(stack, 'POST', messagesOf(hidden), { token: owner.token, body: { content: 's' } })
    ).body;
    const refusals: Array<[unknown, number, number]> = [
      [{ message_reference: { type: 1, message_id: secret.id, channel_id: hidden } }, 403, 50001],
      [
        { message_reference: { type: 1, message_id: '99999999999999999', channel_id: world.channel.id } },
        400,
        50035,
      ],
      [
        { message_reference: { type: 1, message_id: original.id, channel_id: '99999999999999999' } },
        404,
        10003,
      ],
      [{ message_reference: { type: 1, message_id: original.id } }, 400, 50035],
      [{ content: 'and a comment', message_reference: reference }, 400, 50035],
    ];
    for (const [body, status, code] of refusals) {
      const answer = await api(stack, 'POST', messagesOf(elsewhere), { token: member.token, body });
      expect({ body, status: answer.status, code: answer.body?.code }).toEqual({ body, status, code });
    }
  });

  it('checks the channel, the ids and the caller', async () => {
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
    const body = { content: 'hi' };
    const cases: Array<[string, string | undefined, number, number]> = [
      [messagesOf('99999999999999999'), bot, 404, 10003],
      [messagesOf('18446744073709551616'), bot, 400, 50035],
      [messagesOf('abc'), bot, 400, 50035],
      [messagesOf(foreignChannel.id), bot, 403, 50001],
      [messagesOf(foreignChannel.id), member.token, 403, 50001],
      [messagesOf(world.channel.id), 'Bot not-a-token', 401, 0],
      [messagesOf(world.channel.id), undefined, 401, 0],
      [messagesOf(world.channel.id), 'Bearer not-a-token', 401, 0],
    ];
    for (const [path, token, status, code] of cases) {
      const answer = await api(stack, 'POST', path, { ...(token ? { token } : {}), body });
      expect({ path, status: answer.status, code: answer.body?.code }).toEqual({ path, status, code });
    }
  });

  it('needs VIEW_CHANNEL (50001), SEND_MESSAGES (50013) and, to reply, READ_MESSAGE_HISTORY (160002)', async () => {
    const hidden = await channelWith([denyEveryone(VIEW_CHANNEL)]);
    const readOnly = await channelWith([denyEveryone(SEND_MESSAGES)]);
    const noHistory = await channelWith([denyEveryone(READ_MESSAGE_HISTORY)]);
    const send = (channelId: string, body: unknown) =>
      api(stack, 'POST', messagesOf(channelId), { token: member.token, body });
    expect(await send(hidden, { content: 'x' })).toEqual({
      status: 403,
      body: { code: 50001, message: 'Missing Access' },
    });
    expect(await send(readOnly, { content: 'x' })).toMatchObject({ status: 403, body: { code: 50013 } });
    const target = (await rest.post(Routes.channelMessages(noHistory), {
      body: { content: 'first' },
    })) as any;
    expect(await send(noHistory, { content: 'x', message_reference: { message_id: target.id } })).toEqual({
      status: 403,
      body: { code: 160002, message: 'Cannot reply without permission to read message history' },
    });
    // A plain message needs no history; listing without it is empty, reading one is refused.
    expect((await send(noHistory, { content: 'plain' })).status).toBe(200);
    expect(await api(stack, 'GET', messagesOf(noHistory), { token: member.token })).toEqual({
      status: 200,
      body: [],
    });
    expect(
      await api(stack, 'GET', `${messagesOf(noHistory)}/${target.id}`, { token: member.token }),
    ).toMatchObject({ status: 403, body: { code: 50013 } });
  });
});

describe('Get Channel Messages', () => {
  let channelId: string;
  let ids: string[];

  beforeAll(async () => {
    channelId = await channelWith([]);
    ids = [];
    for (let i = 0; i < 7; i += 1) {
      const sent = (await rest.post(Routes.channelMessages(channelId), {
        body: { content: `m${i}` },
      })) as any;
      ids.push(sent.id);
    }
  });

  const list = async (query: string) => {
    const answer = await api(stack, 'GET', `${messagesOf(channelId)}${query}`, { token: member.token });
    expect(answer.status).toBe(200);
    return (answer.body as any[]).map((m) => m.id as string);
  };
  const newestFirst = () => [...ids].reverse();

  it('lists newest first, with limit, before, after and around', async () => {
    expect(await list('')).toEqual(newestFirst());
    expect(await list('?limit=3')).toEqual(newestFirst().slice(0, 3));
    expect(await list(`?before=${ids[3]}&limit=2`)).toEqual([ids[2], ids[1]]);
    expect(await list(`?after=${ids[3]}&limit=2`)).toEqual([ids[5], ids[4]]);
    expect(await list(`?after=${ids[3]}`)).toEqual([ids[6], ids[5], ids[4]]);
    expect(await list(`?around=${ids[3]}&limit=3`)).toEqual([ids[4], ids[3], ids[2]]);
    const page = (await rest.get(Routes.channelMessages(channelId), {
      query: new URLSearchParams({ limit: '2' }),
    })) as any[];
    for (const message of page) expectSchema('MessageResponse', message);
  });

  it('refuses bad queries with 50035', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?before=18446744073709551616',
      '?after=x',
      `?before=${ids[1]}&after=${ids[2]}`,
    ]) {
      const answer = await api(stack, 'GET', `${messagesOf(channelId)}${query}`, { token: bot });
      expect({ query, status: answer.status, code: answer.body?.code }).toEqual({
        query,
        status: 400,
        code: 50035,
      });
    }
  });
});

describe('Edit and Delete Message', () => {
  it('lets the author edit, others only flags with MANAGE_MESSAGES, and deletes', async () => {
    const mine = (
      await api(stack, 'POST', messagesOf(world.channel.id), {
        token: member.token,
        body: { content: 'draft' },
      })
    ).body;
    const path = `${messagesOf(world.channel.id)}/${mine.id}`;
    const edited = await api(stack, 'PATCH', path, { token: member.token, body: { content: 'final' } });
    expect(edited.status).toBe(200);
    expectSchema('MessageResponse', edited.body);
    expect(edited.body).toMatchObject({
      id: mine.id,
      content: 'final',
      edited_timestamp: expect.any(String),
    });

    // The bot (no MANAGE_MESSAGES in the demo guild) can neither edit the content nor the flags.
    expect(await api(stack, 'PATCH', path, { token: bot, body: { content: 'hijack' } })).toEqual({
      status: 403,
      body: { code: 50005, message: 'Cannot edit a message authored by another user' },
    });
    expect(await api(stack, 'PATCH', path, { token: bot, body: { flags: 4 } })).toMatchObject({
      status: 403,
      body: { code: 50013 },
    });
    expect(await api(stack, 'DELETE', path, { token: bot })).toMatchObject({
      status: 403,
      body: { code: 50013 },
    });
    // The guild's owner moderates: suppresses the embeds, then deletes.
    const owner = await ChatUser.open(stack, world.user.id);
    const suppressed = await api(stack, 'PATCH', path, { token: owner.token, body: { flags: 4 } });
    expect(suppressed).toMatchObject({ status: 200, body: { flags: 4, content: 'final' } });
    expect((await api(stack, 'DELETE', path, { token: owner.token })).status).toBe(204);
    expect(await api(stack, 'GET', path, { token: member.token })).toEqual({
      status: 404,
      body: { code: 10008, message: 'Unknown Message' },
    });
    expect(await api(stack, 'PATCH', path, { token: member.token, body: { content: 'x' } })).toMatchObject({
      status: 404,
      body: { code: 10008 },
    });
  });

  it('refuses bad edits and unknown messages with Discord’s bodies', async () => {
    const own = (await rest.post(Routes.channelMessages(world.channel.id), {
      body: { content: 'mine' },
    })) as any;
    const path = `${messagesOf(world.channel.id)}/${own.id}`;
    const cases: Array<[string, string, unknown, number, number]> = [
      ['PATCH', path, { content: 'x'.repeat(2001) }, 400, 50035],
      ['PATCH', path, { content: null, embeds: null }, 400, 50006],
      ['PATCH', `${messagesOf(world.channel.id)}/99999999999999999`, { content: 'x' }, 404, 10008],
      ['GET', `${messagesOf(world.channel.id)}/18446744073709551616`, undefined, 400, 50035],
      ['DELETE', `${messagesOf(world.channel.id)}/99999999999999999`, undefined, 404, 10008],
      ['DELETE', `${messagesOf('99999999999999999')}/${own.id}`, undefined, 404, 10003],
    ];
    for (const [method, target, body, status, code] of cases) {
      const answer = await api(stack, method, target, {
        token: bot,
        ...(body === undefined ? {} : { body }),
      });
      expect({ method, target, status: answer.status, code: answer.body?.code }).toEqual({
        method,
        target,
        status,
        code,
      });
    }
    // A message of another channel is unknown in this one.
    const other = await channelWith([]);
    expect(await api(stack, 'GET', `${messagesOf(other)}/${own.id}`, { token: bot })).toMatchObject({
      status: 404,
      body: { code: 10008 },
    });
    await rest.delete(Routes.channelMessage(world.channel.id, own.id));
  });

  it('lets a moderator delete with MANAGE_MESSAGES granted by an overwrite', async () => {
    const channelId = await channelWith([
      { id: memberId, type: 1, allow: String(MANAGE_MESSAGES), deny: '0' },
    ]);
    const botMessage = (await rest.post(Routes.channelMessages(channelId), {
      body: { content: 'bot says' },
    })) as any;
    const answer = await api(stack, 'DELETE', `${messagesOf(channelId)}/${botMessage.id}`, {
      token: member.token,
    });
    expect(answer.status).toBe(204);
  });
});

describe('message events', () => {
  let userGateway: GatewayTestClient;
  let botGateway: GatewayTestClient;

  beforeAll(async () => {
    await member.connect();
    userGateway = member.gateway!;
    botGateway = await Gateway.connect(`ws://127.0.0.1:${stack.ports.gateway}`);
    // GUILDS | GUILD_MESSAGES | GUILD_MESSAGE_REACTIONS | GUILD_MESSAGE_TYPING, without MESSAGE_CONTENT.
    await botGateway.identify(world.application.botToken, {
      intents: (1 << 0) | (1 << 9) | (1 << 10) | (1 << 11),
    });
    await botGateway.dispatch('GUILD_CREATE', 10_000);
  });

  afterAll(() => {
    botGateway?.close(1000);
  });

  it('sends MESSAGE_CREATE / UPDATE / DELETE to viewers, blanking the content for a bot without MESSAGE_CONTENT', async () => {
    const userSeen = userGateway.received.length;
    const botSeen = botGateway.received.length;
    const sent = (
      await api(stack, 'POST', messagesOf(world.channel.id), {
        token: member.token,
        body: { content: 'secret plans', embeds: [{ title: 'plan' }], nonce: 'n-1' },
      })
    ).body;
    const toUser = await userGateway.next(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.id === sent.id,
      10_000,
      userSeen,
    );
    expect(toUser.d).toMatchObject({
      id: sent.id,
      guild_id: world.guild.id,
      content: 'secret plans',
      nonce: 'n-1',
      author: { id: memberId },
    });
    const toBot = await botGateway.next(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.id === sent.id,
      10_000,
      botSeen,
    );
    expect(toBot.d).toMatchObject({ id: sent.id, guild_id: world.guild.id, content: '', embeds: [] });

    // A message that mentions the bot carries its content to the bot anyway.
    const mention = (
      await api(stack, 'POST', messagesOf(world.channel.id), {
        token: member.token,
        body: { content: `<@${world.application.id}> help` },
      })
    ).body;
    const mentioned = await botGateway.next(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.id === mention.id,
      10_000,
      botSeen,
    );
    expect(mentioned.d.content).toBe(`<@${world.application.id}> help`);

    await api(stack, 'PATCH', `${messagesOf(world.channel.id)}/${sent.id}`, {
      token: member.token,
      body: { content: 'new plans' },
    });
    const updated = await userGateway.next(
      (p) => p.t === 'MESSAGE_UPDATE' && p.d.id === sent.id,
      10_000,
      userSeen,
    );
    expect(updated.d).toMatchObject({ content: 'new plans', edited_timestamp: expect.any(String) });
    await api(stack, 'DELETE', `${messagesOf(world.channel.id)}/${sent.id}`, { token: member.token });
    const deleted = await botGateway.next(
      (p) => p.t === 'MESSAGE_DELETE' && p.d.id === sent.id,
      10_000,
      botSeen,
    );
    expect(deleted.d).toEqual({ id: sent.id, channel_id: world.channel.id, guild_id: world.guild.id });
  });

  it('bulk-deletes with MANAGE_MESSAGES in a guild channel, with MESSAGE_DELETE_BULK', async () => {
    const owner = await ChatUser.open(stack, world.user.id);
    const sent: string[] = [];
    for (const content of ['one', 'two', 'three']) {
      sent.push(
        ((await rest.post(Routes.channelMessages(world.channel.id), { body: { content } })) as any).id,
      );
    }
    const bulk = `${messagesOf(world.channel.id)}/bulk-delete`;
    // The bot holds no MANAGE_MESSAGES in the demo guild.
    expect(await api(stack, 'POST', bulk, { token: bot, body: { messages: sent } })).toMatchObject({
      status: 403,
      body: { code: 50013 },
    });
    const refusals: Array<[unknown, number, number]> = [
      [{ messages: [sent[0]] }, 400, 50016],
      [{ messages: Array.from({ length: 101 }, () => sent[0]) }, 400, 50016],
      [{ messages: [sent[0], sent[0]] }, 400, 50035],
      [{ messages: [sent[0], '175928847299117063'] }, 400, 50034],
      [{ messages: [sent[0], '18446744073709551616'] }, 400, 50035],
      [{ messages: 'all' }, 400, 50035],
      [{}, 400, 50035],
    ];
    for (const [body, status, code] of refusals) {
      const answer = await api(stack, 'POST', bulk, { token: owner.token, body });
      expect({ body, status: answer.status, code: answer.body?.code }).toEqual({ body, status, code });
    }
    const userSeen = userGateway.received.length;
    const botSeen = botGateway.received.length;
    // Two of the three and an id no message has: the unknown one is passed over.
    const ids = [sent[0], sent[2], String(BigInt(sent[2]!) + 1n)];
    expect(await api(stack, 'POST', bulk, { token: owner.token, body: { messages: ids } })).toEqual({
      status: 204,
      body: null,
    });
    const expected = { ids: [sent[0], sent[2]], channel_id: world.channel.id, guild_id: world.guild.id };
    expect((await userGateway.next((p) => p.t === 'MESSAGE_DELETE_BULK', 10_000, userSeen)).d).toEqual(
      expected,
    );
    expect((await botGateway.next((p) => p.t === 'MESSAGE_DELETE_BULK', 10_000, botSeen)).d).toEqual(
      expected,
    );
    const left = (
      await api(stack, 'GET', `${messagesOf(world.channel.id)}?after=${BigInt(sent[0]!) - 1n}`, {
        token: bot,
      })
    ).body.map((m: any) => m.id);
    expect(left).toEqual([sent[1]]);

    // Not in a DM.
    const dm = (await rest.post(Routes.userChannels(), { body: { recipient_id: memberId } })) as any;
    const inDm = [
      ((await rest.post(Routes.channelMessages(dm.id), { body: { content: 'a' } })) as any).id,
      ((await rest.post(Routes.channelMessages(dm.id), { body: { content: 'b' } })) as any).id,
    ];
    expect(
      await api(stack, 'POST', `${messagesOf(dm.id)}/bulk-delete`, { token: bot, body: { messages: inDm } }),
    ).toMatchObject({ status: 403, body: { code: 50003 } });
  });

  it('adds, lists, counts and removes reactions, with MESSAGE_REACTION_* events', async () => {
    const owner = await ChatUser.open(stack, world.user.id);
    const target = (await rest.post(Routes.channelMessages(world.channel.id), {
      body: { content: 'react' },
    })) as any;
    const base = `${messagesOf(world.channel.id)}/${target.id}/reactions`;
    const thumbs = encodeURIComponent('👍');
    const userSeen = userGateway.received.length;
    const botSeen = botGateway.received.length;

    expect(await api(stack, 'PUT', `${base}/${thumbs}/@me`, { token: member.token })).toEqual({
      status: 204,
      body: null,
    });
    // A second time changes nothing and announces nothing.
    expect((await api(stack, 'PUT', `${base}/${thumbs}/%40me`, { token: member.token })).status).toBe(204);
    await rest.put(Routes.channelMessageOwnReaction(world.channel.id, target.id, thumbs));
    const added = await botGateway.next((p) => p.t === 'MESSAGE_REACTION_ADD', 10_000, botSeen);
    expect(added.d).toEqual({
      user_id: memberId,
      channel_id: world.channel.id,
      message_id: target.id,
      guild_id: world.guild.id,
      emoji: { id: null, name: '👍' },
      message_author_id: world.application.id,
      burst: false,
      burst_colors: [],
      type: 0,
    });
    await userGateway.next(
      (p) => p.t === 'MESSAGE_REACTION_ADD' && p.d.user_id === world.application.id,
      10_000,
      userSeen,
    );
    expect(
      userGateway.received
        .slice(userSeen)
        .filter((p) => p.t === 'MESSAGE_REACTION_ADD' && p.d.user_id === memberId),
    ).toHaveLength(1);

    const asMember = (
      await api(stack, 'GET', `${messagesOf(world.channel.id)}/${target.id}`, { token: member.token })
    ).body;
    expectSchema('MessageResponse', asMember);
    expect(asMember.reactions).toEqual([
      {
        count: 2,
        count_details: { burst: 0, normal: 2 },
        me: true,
        me_burst: false,
        emoji: { id: null, name: '👍' },
        burst_colors: [],
      },
    ]);
    const listed = (
      await api(stack, 'GET', `${messagesOf(world.channel.id)}?limit=5`, { token: owner.token })
    ).body;
    expect(listed.find((m: any) => m.id === target.id).reactions[0]).toMatchObject({ count: 2, me: false });

    const users = (await rest.get(
      Routes.channelMessageReaction(world.channel.id, target.id, thumbs),
    )) as any[];
    for (const user of users) expectSchema('UserResponse', user);
    const byId = [memberId, world.application.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(users.map((u) => u.id)).toEqual(byId);
    const page = await api(stack, 'GET', `${base}/${thumbs}?limit=1&after=${byId[0]}`, { token: bot });
    expect(page.body.map((u: any) => u.id)).toEqual([byId[1]]);
    expect((await api(stack, 'GET', `${base}/${thumbs}?type=1`, { token: bot })).body).toEqual([]);

    // Taking one's own back; another's takes MANAGE_MESSAGES.
    expect(await api(stack, 'DELETE', `${base}/${thumbs}/${memberId}`, { token: bot })).toMatchObject({
      status: 403,
      body: { code: 50013 },
    });
    expect((await api(stack, 'DELETE', `${base}/${thumbs}/@me`, { token: member.token })).status).toBe(204);
    const removed = await botGateway.next((p) => p.t === 'MESSAGE_REACTION_REMOVE', 10_000, botSeen);
    expect(removed.d).toEqual({
      user_id: memberId,
      channel_id: world.channel.id,
      message_id: target.id,
      guild_id: world.guild.id,
      emoji: { id: null, name: '👍' },
      burst: false,
      type: 0,
    });
    await api(stack, 'PUT', `${base}/${encodeURIComponent('❤️')}/@me`, { token: member.token });
    expect((await api(stack, 'DELETE', `${base}/${thumbs}`, { token: owner.token })).status).toBe(204);
    expect(
      (await botGateway.next((p) => p.t === 'MESSAGE_REACTION_REMOVE_EMOJI', 10_000, botSeen)).d,
    ).toEqual({
      channel_id: world.channel.id,
      message_id: target.id,
      guild_id: world.guild.id,
      emoji: { id: null, name: '👍' },
    });
    expect((await api(stack, 'DELETE', base, { token: owner.token })).status).toBe(204);
    expect(
      (await userGateway.next((p) => p.t === 'MESSAGE_REACTION_REMOVE_ALL', 10_000, userSeen)).d,
    ).toEqual({
      channel_id: world.channel.id,
      message_id: target.id,
      guild_id: world.guild.id,
    });
    const after = (await api(stack, 'GET', `${messagesOf(world.channel.id)}/${target.id}`, { token: bot }))
      .body;
    expect(after).not.toHaveProperty('reactions');
  });

  it('refuses unknown emojis, messages and missing permissions with Discord’s codes', async () => {
    const owner = await ChatUser.open(stack, world.user.id);
    const noReactions = await channelWith([denyEveryone(1n << 6n)]);
    const target = (
      await api(stack, 'POST', messagesOf(noReactions), { token: owner.token, body: { content: 'x' } })
    ).body;
    const base = `${messagesOf(noReactions)}/${target.id}/reactions`;
    const thumbs = encodeURIComponent('👍');
    // A new emoji takes ADD_REACTIONS; one someone used already does not.
    expect(await api(stack, 'PUT', `${base}/${thumbs}/@me`, { token: member.token })).toMatchObject({
      status: 403,
      body: { code: 50013, message: 'Missing Permissions: ADD_REACTIONS' },
    });
    expect((await api(stack, 'PUT', `${base}/${thumbs}/@me`, { token: owner.token })).status).toBe(204);
    expect((await api(stack, 'PUT', `${base}/${thumbs}/@me`, { token: member.token })).status).toBe(204);

    const cases: Array<[string, string, number, number]> = [
      ['PUT', `${base}/abc/@me`, 400, 10014],
      ['PUT', `${base}/${encodeURIComponent('blob:123456789012345678')}/@me`, 400, 10014],
      ['PUT', `${base}/${encodeURIComponent('👍👍')}/@me`, 400, 10014],
      ['PUT', `${base}/${'%F0%9F%91%8D'.repeat(500)}/@me`, 400, 10014],
      ['GET', `${base}/${thumbs}?limit=101`, 400, 50035],
      ['GET', `${base}/${thumbs}?type=2`, 400, 50035],
      ['GET', `${base}/${thumbs}?after=18446744073709551616`, 400, 50035],
      ['PUT', `${messagesOf(noReactions)}/99999999999999999/reactions/${thumbs}/@me`, 404, 10008],
      ['PUT', `${messagesOf(noReactions)}/18446744073709551616/reactions/${thumbs}/@me`, 400, 50035],
      ['DELETE', `${base}/${thumbs}/18446744073709551616`, 400, 50035],
      ['PUT', `${messagesOf('99999999999999999')}/${target.id}/reactions/${thumbs}/@me`, 404, 10003],
      ['DELETE', base, 403, 50013],
    ];
    for (const [method, path, status, code] of cases) {
      const answer = await api(stack, method, path, { token: member.token });
      expect({ path: path.slice(0, 120), status: answer.status, code: answer.body?.code }).toEqual({
        path: path.slice(0, 120),
        status,
        code,
      });
    }
  });

  it('sends no message of a channel the user or the bot may not view', async () => {
    // Hidden from @everyone, visible to the owner only.
    const hidden = await channelWith([denyEveryone(VIEW_CHANNEL)]);
    const owner = await ChatUser.open(stack, world.user.id);
    const userSeen = userGateway.received.length;
    const botSeen = botGateway.received.length;
    const secret = (
      await api(stack, 'POST', messagesOf(hidden), { token: owner.token, body: { content: 'psst' } })
    ).body;
    const visible = (
      await api(stack, 'POST', messagesOf(world.channel.id), {
        token: owner.token,
        body: { content: 'hello all' },
      })
    ).body;
    // Dispatches keep their order per session: once the visible one arrived, the hidden one would have.
    await userGateway.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === visible.id, 10_000, userSeen);
    await botGateway.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === visible.id, 10_000, botSeen);
    const leaked = (client: GatewayTestClient, from: number) =>
      client.received.slice(from).some((p) => p.t === 'MESSAGE_CREATE' && p.d.id === secret.id);
    expect(leaked(userGateway, userSeen)).toBe(false);
    expect(leaked(botGateway, botSeen)).toBe(false);
  });

  it('typing: answers 204 and sends TYPING_START to viewers and to a bot session with GUILD_MESSAGE_TYPING', async () => {
    const botSeen = botGateway.received.length;
    const userSeen = userGateway.received.length;
    const before = Math.floor(Date.now() / 1000);
    const typed = await api(stack, 'POST', `/channels/${world.channel.id}/typing`, { token: member.token });
    expect(typed.status).toBe(204);
    const isTyping = (p: any) => p.t === 'TYPING_START' && p.d.user_id === memberId;
    const toBot = await botGateway.next(isTyping, 10_000, botSeen);
    expect(toBot.d).toEqual({
      channel_id: world.channel.id,
      guild_id: world.guild.id,
      user_id: memberId,
      timestamp: expect.any(Number),
    });
    expect(toBot.d.timestamp).toBeGreaterThanOrEqual(before);
    expect(toBot.d.timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    const toUser = await userGateway.next(isTyping, 10_000, userSeen);
    expect(toUser.d).toMatchObject({ channel_id: world.channel.id, guild_id: world.guild.id });

    // The bot types too, as discord.js' sendTyping does.
    await rest.post(Routes.channelTyping(world.channel.id));
    await botGateway.next(
      (p) => p.t === 'TYPING_START' && p.d.user_id === world.application.id,
      10_000,
      botSeen,
    );
    await userGateway.next(
      (p) => p.t === 'TYPING_START' && p.d.user_id === world.application.id,
      10_000,
      userSeen,
    );
  });

  it('typing: needs VIEW_CHANNEL (50001) and SEND_MESSAGES (50013), in a known channel, and sends no typing of a hidden channel', async () => {
    const typing = (channelId: string, token = member.token) =>
      api(stack, 'POST', `/channels/${channelId}/typing`, { token });
    const hidden = await channelWith([denyEveryone(VIEW_CHANNEL)]);
    expect(await typing(hidden)).toEqual({
      status: 403,
      body: { message: 'Missing Access', code: 50001 },
    });
    const readOnly = await channelWith([denyEveryone(SEND_MESSAGES)]);
    const refused = await typing(readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50013);
    expect((await typing('99999999999999999')).body.code).toBe(10003);
    expect((await typing('99999999999999999999999')).status).toBe(400);
    expect((await typing('not-a-id')).status).toBe(400);
    expect((await typing(world.channel.id, 'Bot nope')).status).toBe(401);

    // The owner types in the hidden channel, then in the visible one: the member's session
    // gets only the second.
    const owner = await ChatUser.open(stack, world.user.id);
    const userSeen = userGateway.received.length;
    expect((await typing(hidden, owner.token)).status).toBe(204);
    expect((await typing(world.channel.id, owner.token)).status).toBe(204);
    await userGateway.next(
      (p) => p.t === 'TYPING_START' && p.d.user_id === world.user.id && p.d.channel_id === world.channel.id,
      10_000,
      userSeen,
    );
    const leaked = member
      .gateway!.received.slice(userSeen)
      .some((p) => p.t === 'TYPING_START' && p.d.channel_id === hidden);
    expect(leaked).toBe(false);
    owner.close();
  });
});

describe('discord.js', () => {
  /** The portal toggle of the MESSAGE_CONTENT intent (D:resources/application.mdx §Application Flags). */
  const GATEWAY_MESSAGE_CONTENT = 1 << 18;

  it('sends, replies, fetches, edits and deletes, and answers a member’s !ping from messageCreate', async () => {
    await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${world.application.id}`, {
      flags: GATEWAY_MESSAGE_CONTENT,
    });
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { api: `${stack.apiUrl}/api` },
    });
    // A prefix-command bot: `!ping` gets a reply.
    client.on(Events.MessageCreate, (message) => {
      if (message.content === '!ping') void message.reply('pong');
    });
    const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
    await client.login(world.application.botToken);
    await ready;
    const deadline = Date.now() + 10_000;
    while (!client.channels.cache.has(world.channel.id) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const channel = client.channels.cache.get(world.channel.id) as TextChannel;

    const sent = await channel.send({ content: 'hello from discord.js', embeds: [{ title: 'Hi' }] });
    expect(sent.author.id).toBe(world.application.id);
    expect(sent.content).toBe('hello from discord.js');
    expect(sent.embeds[0]?.title).toBe('Hi');
    const reply = await sent.reply('and a reply');
    expect(reply.reference?.messageId).toBe(sent.id);
    const reaction = await reply.react('👍');
    expect(reaction.emoji.name).toBe('👍');
    expect([...(await reaction.users.fetch()).keys()]).toEqual([world.application.id]);

    const latest = await channel.messages.fetch({ limit: 2 });
    expect([...latest.keys()]).toEqual([reply.id, sent.id]);
    const before = await channel.messages.fetch({ before: reply.id, limit: 1 });
    expect([...before.keys()]).toEqual([sent.id]);
    const after = await channel.messages.fetch({ after: sent.id });
    expect([...after.keys()]).toContain(reply.id);
    const single = await channel.messages.fetch({ message: sent.id, force: true });
    expect(single.content).toBe('hello from discord.js');

    await channel.sendTyping();

    const edited = await sent.edit('edited by discord.js');
    expect(edited.content).toBe('edited by discord.js');
    expect(edited.editedTimestamp).not.toBeNull();

    // The member types `!ping`; the bot reads its content (MESSAGE_CONTENT) and replies.
    const pong = new Promise<Message>((resolve) =>
      client!.on(Events.MessageCreate, (message) => {
        if (message.author.id === world.application.id && message.content === 'pong') resolve(message);
      }),
    );
    const ping = await api(stack, 'POST', messagesOf(world.channel.id), {
      token: member.token,
      body: { content: '!ping' },
    });
    expect(ping.status).toBe(200);
    const answer = await pong;
    expect(answer.reference?.messageId).toBe(ping.body.id);

    await reply.delete();
    await expect(channel.messages.fetch({ message: reply.id, force: true })).rejects.toMatchObject({
      code: 10008,
    });
  });
});
