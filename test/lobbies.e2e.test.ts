import { adminExpect } from '../infra/src/admin-client';
import { userAccessToken } from '../infra/src/user-token';
import {
  createApplication,
  createDemoWorld,
  createGuild,
  createUser,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';
import { expectSchema } from './helpers/openapi-validator';
import { WebhookReceiver } from './helpers/webhook-receiver';
import { waitUntil } from './support/stack-steps';

// The Social SDK lobby routes end to end: api-gateway's principals and development
// limits, the lobby service, the dispatcher's LOBBY_* dispatches to members' sessions and
// the LOBBY_MESSAGE_CREATE webhook event (verified with discord-interactions' verifyKey),
// and interactions posting a linked lobby's message to its channel.

const REDIRECT = 'https://lobby.example/callback';
/** The write limit of this stack (per application and route; Discord: 100 per 2 h). */
const WRITE_LIMIT = 40;

let stack: TestStack;
let world: DemoWorld;
const receivers: WebhookReceiver[] = [];
const users: ChatUser[] = [];
/** alice (guild owner, so she may manage its channels) and bob, with Bearer tokens of the app. */
const people = { alice: { id: '', bearer: '', narrow: '' }, bob: { id: '', bearer: '' } };
let guildId = '';
let textChannelId = '';

const bot = () => `Bot ${world.application.botToken}`;

/** A Bearer token of `appId` for the user, with `scope`. */
async function userToken(appId: string, secret: string, userId: string, scope: string): Promise<string> {
  const application = { id: appId, clientSecret: secret };
  return `Bearer ${await userAccessToken(stack.apiUrl, stack.admin, { application, userId, scope, redirectUri: REDIRECT })}`;
}

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs?: number): Promise<T> =>
  waitUntil(stack, what, probe, timeoutMs);

beforeAll(async () => {
  stack = await startTestStack({
    env: { LOBBY_RATE_LIMIT: String(WRITE_LIMIT), LOBBY_LINK_RATE_LIMIT: '3' },
  });
  world = await createDemoWorld(stack);
  const app = world.application;
  await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${app.id}`, {
    redirect_uris: [REDIRECT],
  });
  const alice = await createUser(stack, { username: 'alice' });
  const bob = await createUser(stack, { username: 'bob' });
  people.alice.id = alice.id;
  people.bob.id = bob.id;
  people.alice.bearer = await userToken(app.id, app.clientSecret, alice.id, 'identify sdk.social_layer');
  people.alice.narrow = await userToken(app.id, app.clientSecret, alice.id, 'identify');
  people.bob.bearer = await userToken(app.id, app.clientSecret, bob.id, 'sdk.social_layer');
  const guild = await createGuild(stack, { name: 'Alice guild', owner_id: alice.id });
  guildId = guild.id;
  const channel = await adminExpect(stack.admin, 201, 'POST', `/admin/guilds/${guild.id}/channels`, {
    name: 'lobby-chat',
    type: 0,
  });
  textChannelId = channel.id;
});

afterAll(async () => {
  for (const user of users) user.close();
  await Promise.all(receivers.map((r) => r.stop()));
  await stack?.stop();
});

describe('authentication of the lobby routes', () => {
  it('takes the bot on bot routes, refuses Bearer tokens there, sessions everywhere, and Bearer tokens without sdk.social_layer', async () => {
    const created = await api(stack, 'POST', '/lobbies', { token: bot(), body: { metadata: { a: 'b' } } });
    expect(created.status).toBe(201);
    expectSchema('LobbyResponse', created.body);
    const id = created.body.id;
    const member = await api(stack, 'PUT', `/lobbies/${id}/members/${people.bob.id}`, {
      token: bot(),
      body: { metadata: { seat: '1' }, flags: 1, additional_name: 'Bobby' },
    });
    expect(member.status).toBe(200);
    expectSchema('LobbyMemberResponse', member.body);
    const bulk = await api(stack, 'POST', `/lobbies/${id}/members/bulk`, {
      token: bot(),
      body: [{ id: people.alice.id }, { id: people.bob.id, remove_member: true }],
    });
    expect(bulk.body).toEqual([{ id: people.alice.id, metadata: null, flags: 0 }]);
    const overfull = await api(stack, 'POST', `/lobbies/${id}/members/bulk`, {
      token: bot(),
      body: Array.from({ length: 26 }, () => ({ id: people.alice.id })),
    });
    expect([overfull.status, overfull.body.code]).toEqual([400, 50035]);
    const asBearer = await api(stack, 'GET', `/lobbies/${id}`, { token: people.alice.bearer });
    expect([asBearer.status, asBearer.body.code]).toEqual([403, 20002]);
    const chat = await ChatUser.open(stack, people.alice.id);
    const asSession = await api(stack, 'GET', `/lobbies/${id}`, { token: chat.token });
    expect(asSession.status).toBe(401);
    const none = await api(stack, 'GET', `/lobbies/${id}`);
    expect(none.status).toBe(401);
    const narrow = await api(stack, 'PUT', '/lobbies', { token: people.alice.narrow, body: { secret: 'x' } });
    expect([narrow.status, narrow.body.code]).toEqual([403, 50026]);
    const leaveAsBot = await api(stack, 'DELETE', `/lobbies/${id}/members/@me`, { token: bot() });
    expect([leaveAsBot.status, leaveAsBot.body.code]).toEqual([403, 20001]);
  });

  it("hides one application's lobbies from another (404 / 10031)", async () => {
    const other = await createApplication(stack, { name: 'Other game', owner_id: world.user.id });
    const created = await api(stack, 'POST', '/lobbies', { token: bot(), body: {} });
    for (const [method, path] of [
      ['GET', `/lobbies/${created.body.id}`],
      ['PATCH', `/lobbies/${created.body.id}`],
      ['PUT', `/lobbies/${created.body.id}/members/${people.alice.id}`],
      ['POST', `/lobbies/${created.body.id}/members/bulk`],
    ] as const) {
      const answer = await api(stack, method, path, {
        token: `Bot ${other.bot_token}`,
        body: method === 'POST' ? [{ id: people.alice.id }] : method === 'GET' ? undefined : {},
      });
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 404, 10031]);
    }
    const deleted = await api(stack, 'DELETE', `/lobbies/${created.body.id}`, {
      token: `Bot ${other.bot_token}`,
    });
    expect(deleted.status).toBe(204);
    expect((await api(stack, 'GET', `/lobbies/${created.body.id}`, { token: bot() })).status).toBe(200);
  });
});

describe('a lobby session end to end', () => {
  it('joins by secret, sends messages to the members’ sessions and to the application’s event webhooks', async () => {
    const app = world.application;
    const events = await new WebhookReceiver(app.verifyKey).start();
    const lobbyHook = await new WebhookReceiver(app.verifyKey).start();
    receivers.push(events, lobbyHook);
    const saved = await stack.admin('PATCH', `/admin/applications/${app.id}`, {
      event_webhooks_url: events.url,
      event_webhooks_types: ['LOBBY_MESSAGE_CREATE'],
    });
    expect(saved.status).toBe(200);

    const bobChat = await (await ChatUser.open(stack, people.bob.id)).connect();
    users.push(bobChat);
    const joinedA = await api(stack, 'PUT', '/lobbies', {
      token: people.alice.bearer,
      body: { secret: 'game-42', lobby_metadata: { map: 'dust' }, member_metadata: { role: 'host' } },
    });
    expect(joinedA.status).toBe(200);
    const joinedB = await api(stack, 'PUT', '/lobbies', {
      token: people.bob.bearer,
      body: { secret: 'game-42' },
    });
    expect(joinedB.body.id).toBe(joinedA.body.id);
    expectSchema('LobbyResponse', joinedB.body);
    const lobbyId = joinedA.body.id as string;

    const sent = await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: people.alice.bearer,
      body: { content: 'gl hf' },
    });
    expect(sent.status).toBe(201);
    expectSchema('LobbyMessageResponse', sent.body);
    expect(sent.body).toMatchObject({ content: 'gl hf', lobby_id: lobbyId, author: { id: people.alice.id } });

    const dispatch = await bobChat.gateway!.dispatch('LOBBY_MESSAGE_CREATE');
    expect(dispatch.d).toMatchObject({ id: sent.body.id, content: 'gl hf' });
    const [hook] = await waitFor('the LOBBY_MESSAGE_CREATE webhook event', () => {
      const got = events.events().filter((e) => e.body.event?.type === 'LOBBY_MESSAGE_CREATE');
      return got.length > 0 ? got : undefined;
    });
    expect(hook!.signatureValid).toBe(true);
    expect(hook!.body).toMatchObject({
      version: 1,
      application_id: app.id,
      type: 1,
      event: { type: 'LOBBY_MESSAGE_CREATE', data: sent.body },
    });

    // The lobby's override URL takes the application's place.
    await api(stack, 'PATCH', `/lobbies/${lobbyId}`, {
      token: bot(),
      body: { override_event_webhooks_url: lobbyHook.url },
    });
    const second = await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: people.bob.bearer,
      body: { content: 'again' },
    });
    const [overridden] = await waitFor('the event at the override URL', () => {
      const got = lobbyHook.events();
      return got.length > 0 ? got : undefined;
    });
    expect(overridden!.body.event.data.id).toBe(second.body.id);

    const history = await api(stack, 'GET', `/lobbies/${lobbyId}/messages?limit=1`, {
      token: people.bob.bearer,
    });
    expect(history.status).toBe(200);
    expect(history.body.map((m: { content: string }) => m.content)).toEqual(['again']);
    const badLimit = await api(stack, 'GET', `/lobbies/${lobbyId}/messages?limit=500`, {
      token: people.bob.bearer,
    });
    expect([badLimit.status, badLimit.body.code]).toEqual([400, 50035]);

    // Bob leaves: his session hears LOBBY_DELETE, and he may no longer read.
    const left = await api(stack, 'DELETE', `/lobbies/${lobbyId}/members/@me`, { token: people.bob.bearer });
    expect(left.status).toBe(204);
    expect((await bobChat.gateway!.dispatch('LOBBY_DELETE')).d).toEqual({ id: lobbyId, reason: 'removed' });
    const outsider = await api(stack, 'GET', `/lobbies/${lobbyId}/messages`, { token: people.bob.bearer });
    expect([outsider.status, outsider.body.code]).toEqual([403, 50001]);
  });

  it('links the lobby to a guild text channel: its messages reach the channel too', async () => {
    const aliceChat = await (await ChatUser.open(stack, people.alice.id)).connect();
    users.push(aliceChat);
    const created = await api(stack, 'POST', '/lobbies', {
      token: bot(),
      body: { members: [{ id: people.alice.id, flags: 1 }, { id: people.bob.id }] },
    });
    const lobbyId = created.body.id as string;
    const refused = await api(stack, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, {
      token: people.bob.bearer,
      body: { channel_id: textChannelId },
    });
    expect([refused.status, refused.body.code]).toEqual([403, 50001]);
    const linked = await api(stack, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, {
      token: people.alice.bearer,
      body: { channel_id: textChannelId },
    });
    expect(linked.status).toBe(200);
    expect(linked.body.linked_channel).toMatchObject({ id: textChannelId, guild_id: guildId, type: 0 });
    const sent = await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: people.bob.bearer,
      body: { content: 'to the channel' },
    });
    const posted = await aliceChat.gateway!.next(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.content === 'to the channel',
    );
    expect(posted.d).toMatchObject({
      channel_id: textChannelId,
      guild_id: guildId,
      author: { id: people.bob.id },
    });
    expect(posted.d.id).not.toBe(sent.body.id);
    const unlinked = await api(stack, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, {
      token: people.alice.bearer,
      body: {},
    });
    expect(unlinked.body).not.toHaveProperty('linked_channel');
  });
});

describe('development rate limits', () => {
  it('counts writes per application and route, across every token of the application', async () => {
    const owner = await createUser(stack, { username: 'limited-owner' });
    const game = await createApplication(stack, { name: 'Limited game', owner_id: owner.id });
    const token = `Bot ${game.bot_token}`;
    const answers = [];
    for (let i = 0; i < WRITE_LIMIT; i++)
      answers.push(await api(stack, 'POST', '/lobbies', { token, body: {} }));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const over = await fetch(`${stack.apiUrl}/api/v10/lobbies`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-limit')).toBe(String(WRITE_LIMIT));
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // GET is not limited, and another application's bucket is its own.
    expect((await api(stack, 'GET', `/lobbies/${answers[0]!.body.id}`, { token })).status).toBe(200);
    expect((await api(stack, 'POST', '/lobbies', { token: bot(), body: {} })).status).toBe(201);
  });
});
