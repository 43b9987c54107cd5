import { REST } from '@discordjs/rest';
import { adminExpect } from '../infra/src/admin-client';
import { expectSchema } from './helpers/openapi-validator';
import { createDemoWorld, createUser, startTestStack, type DemoWorld, type TestStack } from './support';
import { api, ChatUser } from './support/chat-user';

/**
 * (Beside search, on the same stack: MESSAGE_CREATE's partial `member` and `mention_roles`.)
 *
 * Search Guild Messages through the whole stack (api-gateway → interactions → permissions;
 * interactions' indexer and its consumer of its own message events): a guild's first search
 * answers 202 / 110000, the index is built off the request path after SEARCH_INDEX_DELAY_MS
 * (the default, 2 s), then 200 with the filters applied, only the channels the caller may
 * read, and new, edited, pinned and deleted messages followed.
 */
let stack: TestStack;
let world: DemoWorld;
let rest: REST;
let bot: string;
let owner: ChatUser;
let member: ChatUser;
let memberId: string;

const MENTION_EVERYONE = 1n << 17n;
const READ_MESSAGE_HISTORY = 1n << 16n;
/** The portal toggle of the MESSAGE_CONTENT intent (D:resources/application.mdx §Application Flags). */
const GATEWAY_MESSAGE_CONTENT = 1 << 18;

const searchPath = (query = '') =>
  `/guilds/${world.guild.id}/messages/search${query === '' ? '' : `?${query}`}`;

/** A message sent by `token` in `channelId`. */
async function send(token: string, channelId: string, body: Record<string, unknown>): Promise<any> {
  const answer = await api(stack, 'POST', `/channels/${channelId}/messages`, { token, body });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Searches as `token` until `ready(body)` holds (the index follows events: it lags by milliseconds). */
async function searchUntil(token: string, query: string, ready: (body: any) => boolean): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await api(stack, 'GET', searchPath(query), { token });
    if (answer.status === 200 && ready(answer.body)) return answer.body;
    if (Date.now() > deadline) throw new Error(`search ${query} never got there: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const idsOf = (body: any): string[] => body.messages.map((group: any[]) => group[0].id);

let first: any;
let second: any;
let secret: string;
let hidden: any;

beforeAll(async () => {
  // The first calls of a stack on a machine shared with other work can take past 30 s.
  stack = await startTestStack({ env: { REQUEST_DEADLINE_MS: '120000' } });
  world = await createDemoWorld(stack);
  bot = `Bot ${world.application.botToken}`;
  rest = new REST({ api: `${stack.apiUrl}/api`, version: '10' }).setToken(world.application.botToken);
  await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${world.application.id}`, {
    flags: GATEWAY_MESSAGE_CONTENT,
  });
  const user = await createUser(stack, { username: 'searcher' });
  memberId = user.id;
  await adminExpect(stack.admin, 201, 'PUT', `/admin/guilds/${world.guild.id}/members/${memberId}`, {});
  member = await ChatUser.open(stack, memberId);
  owner = await ChatUser.open(stack, world.user.id);
  // A channel whose history members cannot read (VIEW_CHANNEL is kept): its messages are not found.
  const channel = await adminExpect(stack.admin, 201, 'POST', `/admin/guilds/${world.guild.id}/channels`, {
    name: 'staff',
    type: 0,
    permission_overwrites: [{ id: world.guild.id, type: 0, allow: '0', deny: String(READ_MESSAGE_HISTORY) }],
  });
  secret = channel.id as string;
  // Messages written before the guild's first search: the indexer's backfill finds them.
  first = await send(bot, world.channel.id, { content: 'the quick brown fox https://example.com/fox' });
  second = await send(member.token, world.channel.id, {
    content: `lazy dog for <@${world.application.id}>`,
  });
  hidden = await send(owner.token, secret, { content: 'quick staff secret' });
}, 600_000);

afterAll(async () => {
  member?.close();
  owner?.close();
  await stack?.stop();
});

describe('Search Guild Messages', () => {
  it('answers 202 / 110000 until the guild is indexed, then 200 with the messages', async () => {
    const pending = await api(stack, 'GET', searchPath('content=quick'), { token: member.token });
    expect(pending.status).toBe(202);
    expectSchema('SearchIndexNotReadyResponse', pending.body);
    expect(pending.body).toMatchObject({
      code: 110000,
      message: 'Index not yet available. Try again later',
      documents_indexed: 0,
    });
    expect(pending.body.retry_after).toBeGreaterThanOrEqual(0);
    expect(pending.body.retry_after).toBeLessThanOrEqual(2);

    const found = await searchUntil(member.token, 'content=quick', () => true);
    expectSchema('GuildSearchResponse', found);
    // The member cannot read #staff's history: only the fox is found.
    expect(found.total_results).toBe(1);
    expect(idsOf(found)).toEqual([first.id]);
    const [[message]] = found.messages;
    expect(message).toMatchObject({
      id: first.id,
      content: first.content,
      guild_id: world.guild.id,
      hit: true,
    });
    expect(message).not.toHaveProperty('reactions');
    // The owner reads every channel.
    const everything = await searchUntil(owner.token, 'content=quick', () => true);
    expect(idsOf(everything)).toEqual([hidden.id, first.id]);
  });

  it('applies the filters', async () => {
    await searchUntil(member.token, '', (body) => body.total_results >= 2);
    const ids = async (query: string) => idsOf(await searchUntil(member.token, query, () => true));
    expect(await ids(`author_id=${memberId}`)).toEqual([second.id]);
    expect(await ids('author_type=bot')).toEqual([first.id]);
    expect(await ids('author_type=-bot')).toEqual([second.id]);
    expect(await ids(`mentions=${world.application.id}`)).toEqual([second.id]);
    expect(await ids('has=link')).toEqual([first.id]);
    expect(await ids('has=-link')).toEqual([second.id]);
    expect(await ids('link_hostname=example.com')).toEqual([first.id]);
    expect(await ids(`channel_id=${world.channel.id}&sort_order=asc`)).toEqual([first.id, second.id]);
    expect(await ids(`max_id=${second.id}`)).toEqual([first.id]);
    expect(await ids(`min_id=${first.id}`)).toEqual([second.id]);
    expect(await ids('limit=1&offset=1')).toEqual([first.id]);
    expect(await ids('content=LAZY+dog&sort_by=relevance')).toEqual([second.id]);
    expect(await ids('content=fox+dog')).toEqual([]);
    // A channel named that the caller may not read finds nothing there.
    expect(await ids(`channel_id=${secret}`)).toEqual([]);
    const page = await searchUntil(member.token, 'limit=1', () => true);
    expect(page.total_results).toBe(2);
  });

  it('follows new, edited, pinned and deleted messages', async () => {
    const late = await send(member.token, world.channel.id, { content: 'zebra crossing' });
    await searchUntil(member.token, 'content=zebra', (body) => idsOf(body).includes(late.id));
    const edited = await api(stack, 'PATCH', `/channels/${world.channel.id}/messages/${late.id}`, {
      token: member.token,
      body: { content: 'giraffe crossing' },
    });
    expect(edited.status).toBe(200);
    await searchUntil(member.token, 'content=giraffe', (body) => idsOf(body).includes(late.id));
    expect(idsOf(await searchUntil(member.token, 'content=zebra', () => true))).toEqual([]);

    const pinned = await api(stack, 'PUT', `/channels/${world.channel.id}/messages/pins/${late.id}`, {
      token: owner.token,
    });
    expect(pinned.status).toBe(204);
    await searchUntil(member.token, 'pinned=true', (body) => idsOf(body).includes(late.id));

    const removed = await api(stack, 'DELETE', `/channels/${world.channel.id}/messages/${late.id}`, {
      token: member.token,
    });
    expect(removed.status).toBe(204);
    await searchUntil(member.token, 'content=giraffe', (body) => body.total_results === 0);
  });

  it('serves a bot through @discordjs/rest, and refuses a bot without the MESSAGE_CONTENT toggle', async () => {
    const answer = (await rest.get(`/guilds/${world.guild.id}/messages/search`, {
      query: new URLSearchParams([
        ['content', 'fox'],
        ['author_type', 'bot'],
      ]),
    })) as any;
    expectSchema('GuildSearchResponse', answer);
    expect(idsOf(answer)).toEqual([first.id]);

    await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${world.application.id}`, { flags: 0 });
    try {
      expect(await api(stack, 'GET', searchPath('content=fox'), { token: bot })).toEqual({
        status: 403,
        body: { message: 'Missing Access', code: 50001 },
      });
    } finally {
      await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${world.application.id}`, {
        flags: GATEWAY_MESSAGE_CONTENT,
      });
    }
  });

  it('refuses a guild the caller is not in, an unknown guild, and a malformed query', async () => {
    const stranger = await createUser(stack, { username: 'stranger' });
    const outsider = await ChatUser.open(stack, stranger.id);
    try {
      expect(await api(stack, 'GET', searchPath(), { token: outsider.token })).toMatchObject({
        status: 403,
        body: { code: 50001 },
      });
    } finally {
      outsider.close();
    }
    expect(
      await api(stack, 'GET', '/guilds/99999999999999999/messages/search', { token: member.token }),
    ).toMatchObject({
      status: 404,
      body: { code: 10004 },
    });
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=26', 'limit'],
      ['offset=9976', 'offset'],
      ['sort_by=newest', 'sort_by'],
      ['sort_order=up', 'sort_order'],
      ['has=nothing', 'has'],
      ['author_type=robot', 'author_type'],
      ['author_id=abc', 'author_id'],
      ['max_id=99999999999999999999', 'max_id'],
      ['pinned=yes', 'pinned'],
      [`content=${'a'.repeat(1025)}`, 'content'],
      [`limit=1&limit=2`, 'limit'],
      [Array.from({ length: 101 }, () => `mentions=${memberId}`).join('&'), 'mentions'],
      ['slop=101', 'slop'],
      ['embed_type=meme', 'embed_type'],
    ];
    for (const [query, field] of cases) {
      const answer = await api(stack, 'GET', searchPath(query), { token: member.token });
      expect({ query, status: answer.status, code: answer.body?.code }).toEqual({
        query,
        status: 400,
        code: 50035,
      });
      expect(answer.body.errors).toHaveProperty(field);
    }
  });
});

describe('MESSAGE_CREATE in a guild', () => {
  it("carries the author's partial member, and mention_roles as allowed_mentions and MENTION_EVERYONE allow", async () => {
    await member.connect();
    const gateway = member.gateway!;
    const created = async (token: string, channelId: string, body: Record<string, unknown>) => {
      const seen = gateway.received.length;
      const sent = await send(token, channelId, body);
      const event = await gateway.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === sent.id, 10_000, seen);
      return { sent, event: event.d as any };
    };
    const roleId = world.role.id;
    const content = `hi <@&${roleId}> and <@&99999999999999999>`;
    // The owner holds MENTION_EVERYONE: the guild's role is pinged, an unknown one is not.
    const { sent, event } = await created(owner.token, world.channel.id, { content });
    expect(sent.mention_roles).toEqual([roleId]);
    expect(sent).not.toHaveProperty('member');
    expect(event.mention_roles).toEqual([roleId]);
    expect(event.member).toMatchObject({ roles: expect.any(Array), deaf: false, mute: false });
    expect(typeof event.member.joined_at).toBe('string');
    expect(event.member).not.toHaveProperty('user');
    expect(event.member).not.toHaveProperty('permissions');
    // allowed_mentions without roles pings none.
    const quiet = await created(owner.token, world.channel.id, { content, allowed_mentions: { parse: [] } });
    expect(quiet.event.mention_roles).toEqual([]);
    const listed = await created(owner.token, world.channel.id, {
      content,
      allowed_mentions: { roles: [roleId] },
    });
    expect(listed.event.mention_roles).toEqual([roleId]);
    // Without MENTION_EVERYONE (ACS roles are never mentionable) no role is pinged.
    const channel = await adminExpect(stack.admin, 201, 'POST', `/admin/guilds/${world.guild.id}/channels`, {
      name: 'no-pings',
      type: 0,
      permission_overwrites: [{ id: world.guild.id, type: 0, allow: '0', deny: String(MENTION_EVERYONE) }],
    });
    const plain = await send(member.token, channel.id as string, { content });
    expect(plain.mention_roles).toEqual([]);
  });
});
