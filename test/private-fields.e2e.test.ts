import { Client } from 'pg';
import { adminExpect } from '../infra/src/admin-client';
import { userAccessToken } from '../infra/src/user-token';
import { GatewayTestClient } from './helpers/gateway-client';
import { WebhookReceiver } from './helpers/webhook-receiver';
import { createDemoWorld, createUser, startTestStack, type DemoWorld, type TestStack } from './support';
import { api, ChatUser, type Answer } from './support/chat-user';
import { waitUntil } from './support/stack-steps';

/**
 * Issue 28, finding 1: a user is shown to anyone but themselves as the public user object
 * (OAS `UserResponse`) only. This walks every route and event that embeds another user —
 * lobby messages and their LOBBY_MESSAGE_CREATE (members' sessions, the app's event
 * webhook), the linked channel's MESSAGE_CREATE to a guild member outside the lobby,
 * GUILD_CREATE / GUILD_MEMBER_ADD / PRESENCE_UPDATE / INTERACTION_CREATE to the app's bot,
 * a DM's recipients — and the rows the services stored, and fails
 * on any private field of a user who has an e-mail, a locale and a verified address.
 */

/** What only a user themselves (or an app with `email`) is shown (OAS `UserPIIResponse`). */
const PRIVATE_FIELDS = ['email', 'verified', 'mfa_enabled', 'locale', 'premium_type'];
const REDIRECT = 'https://private-fields.example/callback';
/** GATEWAY_PRESENCE and GATEWAY_GUILD_MEMBERS (D:resources/application.mdx §Application Flags). */
const PRIVILEGED_INTENT_FLAGS = (1 << 12) | (1 << 14);
/** GUILDS, GUILD_MEMBERS, GUILD_PRESENCES, GUILD_MESSAGES. */
const BOT_INTENTS = 1 | (1 << 1) | (1 << 8) | (1 << 9);

let stack: TestStack;
let world: DemoWorld;
let events: WebhookReceiver;
let botSession: GatewayTestClient;
const chats: ChatUser[] = [];
/** The author: a guild member with an e-mail, a locale and a verified address. */
let alice: { id: string };
/** A guild member outside every lobby, who reads the linked channel. */
let carol: { id: string };

/** Every payload another party was shown, by where it was seen. */
const seen: Array<{ where: string; payload: unknown }> = [];
const record = (where: string, answer: Answer): Answer => {
  seen.push({ where, payload: answer.body });
  return answer;
};

/** The paths of every user object (an object with `id` and `username`) showing a private field. */
function privateFieldsIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => privateFieldsIn(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  const found: string[] = [];
  if (typeof object.id === 'string' && typeof object.username === 'string') {
    for (const field of PRIVATE_FIELDS) if (field in object) found.push(`${path}.${field}`);
    if (object.bot === false) found.push(`${path}.bot (false: only bots carry it)`);
  }
  for (const [key, inner] of Object.entries(object)) found.push(...privateFieldsIn(inner, `${path}.${key}`));
  return found;
}

const bot = () => `Bot ${world.application.botToken}`;
const admin = (status: number, method: string, path: string, body?: unknown) =>
  adminExpect(stack.admin, status, method, path, body);
const bearer = async (userId: string) =>
  `Bearer ${await userAccessToken(stack.apiUrl, stack.admin, {
    application: { id: world.application.id, clientSecret: world.application.clientSecret },
    userId,
    scope: 'identify sdk.social_layer',
    redirectUri: REDIRECT,
  })}`;

async function chatOf(userId: string): Promise<ChatUser> {
  const chat = await (await ChatUser.open(stack, userId)).connect();
  chats.push(chat);
  return chat;
}

beforeAll(async () => {
  stack = await startTestStack({ env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' } });
  world = await createDemoWorld(stack);
  const app = world.application;
  events = await new WebhookReceiver(app.verifyKey).start();
  await admin(200, 'PATCH', `/admin/applications/${app.id}`, {
    redirect_uris: [REDIRECT],
    flags: PRIVILEGED_INTENT_FLAGS,
    event_webhooks_url: events.url,
    event_webhooks_types: ['LOBBY_MESSAGE_CREATE'],
  });
  alice = await createUser(stack, { username: 'alice', email: 'alice@private.test', locale: 'fr' });
  carol = await createUser(stack, { username: 'carol', email: 'carol@private.test', locale: 'de' });
  for (const user of [alice, carol])
    await admin(201, 'PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, {});
  botSession = await GatewayTestClient.connect(`ws://127.0.0.1:${stack.ports.gateway}`);
  await botSession.identify(app.botToken, { intents: BOT_INTENTS });
  await botSession.dispatch('GUILD_CREATE');
});

afterAll(async () => {
  for (const chat of chats) chat.close();
  botSession?.close(1000);
  await events?.stop();
  await stack?.stop();
});

it("shows no user's private fields to anyone but themselves, in any answer, event or stored row", async () => {
  const app = world.application;
  const aliceChat = await chatOf(alice.id);
  const carolChat = await chatOf(carol.id);
  const ownerChat = await chatOf(world.user.id);

  // A presence and a member who joins after the bot connected.
  aliceChat.gateway!.send({ op: 3, d: { since: null, status: 'online', afk: false, activities: [] } });
  await botSession.next((p) => p.t === 'PRESENCE_UPDATE' && p.d.user.id === alice.id);
  const dave = await createUser(stack, { username: 'dave', email: 'dave@private.test', locale: 'it' });
  await admin(201, 'PUT', `/admin/guilds/${world.guild.id}/members/${dave.id}`, {});
  await botSession.next((p) => p.t === 'GUILD_MEMBER_ADD' && p.d.user.id === dave.id);

  // A lobby of alice and the guild's owner, linked to the guild's channel, which carol reads.
  const created = record(
    'POST /lobbies',
    await api(stack, 'POST', '/lobbies', {
      token: bot(),
      body: { members: [{ id: alice.id }, { id: world.user.id, flags: 1 }] },
    }),
  );
  expect(created.status).toBe(201);
  const lobbyId = created.body.id as string;
  const ownerBearer = await bearer(world.user.id);
  const linked = await api(stack, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, {
    token: ownerBearer,
    body: { channel_id: world.channel.id },
  });
  expect(linked.status).toBe(200);
  const sent = record(
    'POST /lobbies/{id}/messages',
    await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: await bearer(alice.id),
      body: { content: 'hello from alice' },
    }),
  );
  expect(sent.status).toBe(201);
  record(
    'GET /lobbies/{id}/messages',
    await api(stack, 'GET', `/lobbies/${lobbyId}/messages`, { token: ownerBearer }),
  );
  await ownerChat.gateway!.next((p) => p.t === 'LOBBY_MESSAGE_CREATE' && p.d.id === sent.body.id);
  await carolChat.gateway!.next((p) => p.t === 'MESSAGE_CREATE' && p.d.content === 'hello from alice');
  await waitUntil(stack, 'the LOBBY_MESSAGE_CREATE webhook event', () =>
    events.events().some((e) => e.body.event?.type === 'LOBBY_MESSAGE_CREATE'),
  );

  // alice invokes a command of the app: INTERACTION_CREATE on the bot's session.
  const command = await api(stack, 'POST', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
    token: bot(),
    body: { name: 'whoami', description: 'Shows who asked' },
  });
  expect(command.status).toBe(201);
  const invoked = await aliceChat.invoke(
    {
      type: 2,
      application_id: app.id,
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      data: { id: command.body.id, name: 'whoami', type: 1, version: command.body.version },
    },
    { wait: false },
  );
  expect(invoked.status).toBe(204);
  await botSession.next((p) => p.t === 'INTERACTION_CREATE' && p.d.member?.user?.id === alice.id);

  // A DM's recipients.
  record(
    'POST /users/@me/channels',
    await api(stack, 'POST', '/users/@me/channels', { token: bot(), body: { recipient_id: alice.id } }),
  );

  // READY's `user` is the session's own user, shown whole to itself.
  const others = (payload: { t?: string | null; d?: any }) =>
    payload.t === 'READY' ? { ...payload, d: { ...payload.d, user: undefined } } : payload;
  for (const payload of botSession.received)
    seen.push({ where: `bot session ${payload.t ?? payload.op}`, payload: others(payload) });
  for (const chat of [aliceChat, carolChat, ownerChat])
    for (const payload of chat.gateway!.received)
      seen.push({ where: `${chat.userId}'s session ${payload.t ?? payload.op}`, payload: others(payload) });
  for (const event of events.events()) seen.push({ where: 'event webhook', payload: event.body });

  // What the services stored and will send again.
  const db = new Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    for (const [where, sql] of [
      ['lobby.lobby_message', 'SELECT message AS v FROM lobby.lobby_message'],
      ['lobby.outbox', 'SELECT payload AS v FROM lobby.outbox'],
      ['interactions.message', 'SELECT body AS v FROM interactions.message'],
      ['interactions.outbox', 'SELECT payload AS v FROM interactions.outbox'],
      ['dispatcher.webhook_delivery', 'SELECT body::jsonb AS v FROM dispatcher.webhook_delivery'],
    ] as const) {
      const rows = (await db.query<{ v: unknown }>(sql)).rows;
      for (const row of rows) seen.push({ where, payload: row.v });
    }
  } finally {
    await db.end();
  }

  const wheres = new Set(seen.map((s) => s.where.split(' ')[0]));
  expect([...wheres]).toEqual(expect.arrayContaining(['lobby.lobby_message', 'event', 'POST', 'GET', 'bot']));
  const leaks = seen.flatMap(({ where, payload }) =>
    privateFieldsIn(payload).map((path) => `${where}: ${path}`),
  );
  expect(leaks).toEqual([]);
  // The walk did see the author and the invoker, as others are shown them.
  const authors = seen.flatMap(
    ({ payload }) => JSON.stringify(payload ?? null).match(/"username":"alice"/g) ?? [],
  );
  expect(authors.length).toBeGreaterThan(5);
});

it('shows a user their own whole object at GET /users/@me through their chat-client session, and a Bearer token only what its scopes allow', async () => {
  const session = await ChatUser.open(stack, alice.id);
  const own = await api(stack, 'GET', '/users/@me', { token: session.token });
  expect(own.status).toBe(200);
  expect(own.body).toMatchObject({
    id: alice.id,
    username: 'alice',
    email: 'alice@private.test',
    locale: 'fr',
  });
  const scoped = await api(stack, 'GET', '/users/@me', { token: await bearer(alice.id) });
  expect(scoped.status).toBe(200);
  expect(scoped.body.id).toBe(alice.id);
  expect(scoped.body).not.toHaveProperty('email');
  expect((await api(stack, 'GET', '/users/@me', { token: 'not-a-session' })).status).toBe(401);
});
