import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
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
 * Every route of the public and admin API, fed malformed input of every kind: bad JSON,
 * bodies of the wrong type, huge and deeply nested bodies, malformed and unknown ids,
 * strange query strings and headers, missing, malformed and foreign credentials. The
 * answer is always a 4xx (or a success) with the API's JSON error body: never a 5xx,
 * never a hang. The route list is checked against the gateway's source, so a new route
 * cannot be left out.
 */

let stack: TestStack;
let world: DemoWorld;
let foreignBotToken: string;
/** The user the sweep's ban routes name instead of the demo world's user. */
let bannedUserId: string;
let deletedUserId: string;
/** A lobby of the demo world's application (the generic sweeps' `:lobby_id`). */
let worldLobbyId: string;
/** The demo world's interactions: what the routes below take as real ids and tokens. */
let worldInteractions: InteractionFixture;
const endpoints: InteractionsEndpoint[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    // The sweeps answer interactions long after they were invoked: a pending one must stay
    // pending (callable back) for the whole file, not fail after the 3 s of production.
    // The lobby development limits (100 per 2 h) would answer 429 before the sweep is done.
    env: {
      INTERACTION_RESPONSE_DEADLINE_MS: String(60 * 60_000),
      LOBBY_RATE_LIMIT: '0',
      LOBBY_LINK_RATE_LIMIT: '0',
      // The lobbies the generic sweep creates (300 s idle by default) must outlive the
      // hostile-field sweep, whose database snapshot they are in: 15 minutes. (More would
      // overflow the 7 days a lobby may idle: 604,800 × this must stay within 2^31 ms.)
      LOBBY_IDLE_SECOND_MS: '3000',
    },
  });
  world = await createDemoWorld(stack);
  foreignBotToken = (await createApplication(stack, { name: 'Foreign App', owner_id: world.user.id }))
    .bot_token;
  worldInteractions = await openInteractions(world, 'Sweep HTTP App');
  bannedUserId = (await createUser(stack, { username: 'sweep-banned' })).id;
  deletedUserId = (await createUser(stack, { username: 'sweep-deleted' })).id;
  const lobby = await api(stack, 'POST', '/lobbies', {
    token: `Bot ${world.application.botToken}`,
    body: { members: [{ id: world.user.id, flags: 1 }], idle_timeout_seconds: 604800 },
  });
  expect(lobby.status).toBe(201);
  worldLobbyId = lobby.body.id;
});

afterAll(async () => {
  for (const endpoint of endpoints) await endpoint.stop();
  await stack?.stop();
});

/** An interaction as its app receives it: what its routes are called with. */
interface ReceivedInteraction {
  id: string;
  token: string;
}

/**
 * An app answering over HTTP (its endpoint verifies every request with discord-interactions)
 * installed in a world's guild, a guild command with options of every kind a hostile value
 * can hide in, the owner's chat-client session, and real interactions of it: pending ones
 * (the endpoint answered 202: they wait for their callback) and an answered one with its
 * original response and two follow-ups.
 */
interface InteractionFixture {
  app: { id: string; bot_token: string };
  endpoint: InteractionsEndpoint;
  user: ChatUser;
  /** The invocation every sweep starts from: the command with each option set (a nonce never used). */
  invocation: Record<string, unknown>;
  /** Two pending interactions: one the sweeps answer, one that proves their template is answerable. */
  pending: ReceivedInteraction;
  pendingTwin: ReceivedInteraction;
  answered: ReceivedInteraction & { originalId: string; followupId: string; spareFollowupId: string };
}

async function openInteractions(target: DemoWorld, name: string): Promise<InteractionFixture> {
  const app = await createApplication(stack, { name, owner_id: target.user.id });
  const endpoint = await new InteractionsEndpoint(app.verify_key).start();
  endpoints.push(endpoint);
  const saved = await stack.admin('PATCH', `/admin/applications/${app.id}`, {
    interactions_endpoint_url: endpoint.url,
  });
  expect(saved.status).toBe(200);
  await installApplication(stack, {
    applicationId: app.id,
    userId: target.user.id,
    guildId: target.guild.id,
  });
  const registered = await api(stack, 'POST', `/applications/${app.id}/guilds/${target.guild.id}/commands`, {
    token: `Bot ${app.bot_token}`,
    body: {
      name: 'poison',
      description: 'Takes a value of every kind',
      options: [
        { type: 3, name: 'text', description: 'Some text', required: true, max_length: 50 },
        { type: 4, name: 'count', description: 'How many', min_value: 1, max_value: 5 },
        { type: 6, name: 'who', description: 'A user' },
        { type: 7, name: 'where', description: 'A channel', channel_types: [0] },
      ],
    },
  });
  expect(registered.status).toBe(201);
  const command = registered.body;
  const user = await ChatUser.open(stack, target.user.id);
  const invocation = {
    type: 2,
    application_id: app.id,
    guild_id: target.guild.id,
    channel_id: target.channel.id,
    session_id: '0123456789abcdef0123456789abcdef',
    nonce: user.nonce(),
    data: {
      id: command.id,
      name: command.name,
      type: 1,
      version: command.version,
      options: [
        { name: 'text', type: 3, value: 'hello' },
        { name: 'count', type: 4, value: 2 },
        { name: 'who', type: 6, value: target.user.id },
        { name: 'where', type: 7, value: target.channel.id },
      ],
    },
  };

  // The invocation as it is, under another nonce: answered at once by the endpoint.
  endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Answered' } } });
  let from = endpoint.received.length;
  const invoked = await user.invoke({ ...invocation, nonce: user.nonce() });
  expect(invoked.status).toBe(200);
  expect(invoked.body).toMatchObject({ outcome: 'success' });
  const answered = (await endpoint.next(from)) as ReceivedInteraction;
  const followup = async () => {
    const posted = await api(stack, 'POST', `/webhooks/${app.id}/${answered.token}`, {
      body: { content: 'A follow-up' },
    });
    expect(posted.status).toBe(200);
    return posted.body.id as string;
  };

  // Two more the endpoint defers (202): they stay pending for the callback route.
  endpoint.answer = () => ({ status: 202 });
  const deferred = async () => {
    from = endpoint.received.length;
    expect((await user.invoke({ ...invocation, nonce: user.nonce() }, { wait: false })).status).toBe(204);
    return (await endpoint.next(from)) as ReceivedInteraction;
  };
  return {
    app,
    endpoint,
    user,
    invocation,
    pending: await deferred(),
    pendingTwin: await deferred(),
    answered: {
      id: answered.id,
      token: answered.token,
      originalId: invoked.body.messages[0].id,
      followupId: await followup(),
      spareFollowupId: await followup(),
    },
  };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Public routes (under /api/v10), as the gateway declares them. */
const PUBLIC_ROUTES: Array<[Method, string]> = [
  ['get', '/applications/:application_id/commands'],
  ['post', '/applications/:application_id/commands'],
  ['put', '/applications/:application_id/commands'],
  ['get', '/applications/:application_id/commands/:command_id'],
  ['patch', '/applications/:application_id/commands/:command_id'],
  ['delete', '/applications/:application_id/commands/:command_id'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands'],
  ['post', '/applications/:application_id/guilds/:guild_id/commands'],
  ['put', '/applications/:application_id/guilds/:guild_id/commands'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands/:command_id'],
  ['patch', '/applications/:application_id/guilds/:guild_id/commands/:command_id'],
  ['delete', '/applications/:application_id/guilds/:guild_id/commands/:command_id'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands/permissions'],
  ['put', '/applications/:application_id/guilds/:guild_id/commands/permissions'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions'],
  ['put', '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions'],
  ['get', '/guilds/:guild_id/application-command-index'],
  ['get', '/applications/:application_id/guild-command-index'],
  ['get', '/gateway'],
  ['get', '/gateway/bot'],
  ['post', '/oauth2/token'],
  ['post', '/oauth2/token/revoke'],
  ['get', '/oauth2/@me'],
  ['get', '/oauth2/applications/@me'],
  ['get', '/applications/@me'],
  ['patch', '/applications/@me'],
  ['get', '/users/@me'],
  ['get', '/users/@me/guilds'],
  ['get', '/users/@me/connections'],
  ['post', '/users/@me/channels'],
  ['put', '/channels/:channel_id/voice-status'],
  ['patch', '/guilds/:guild_id/members/:user_id'],
  ['post', '/guilds'],
  ['get', '/channels/:channel_id/messages/pins'],
  ['put', '/channels/:channel_id/messages/pins/:message_id'],
  ['delete', '/channels/:channel_id/messages/pins/:message_id'],
  ['get', '/channels/:channel_id/pins'],
  ['put', '/channels/:channel_id/pins/:message_id'],
  ['delete', '/channels/:channel_id/pins/:message_id'],
  ['post', '/channels/:channel_id/messages/bulk-delete'],
  ['post', '/attachments/refresh-urls'],
  ['post', '/channels/:channel_id/messages'],
  ['get', '/channels/:channel_id/messages'],
  ['put', '/channels/:channel_id/messages/:message_id/reactions/:emoji/@me'],
  ['delete', '/channels/:channel_id/messages/:message_id/reactions/:emoji/@me'],
  ['delete', '/channels/:channel_id/messages/:message_id/reactions/:emoji/:user_id'],
  ['get', '/channels/:channel_id/messages/:message_id/reactions/:emoji'],
  ['delete', '/channels/:channel_id/messages/:message_id/reactions/:emoji'],
  ['delete', '/channels/:channel_id/messages/:message_id/reactions'],
  ['get', '/channels/:channel_id/messages/:message_id'],
  ['patch', '/channels/:channel_id/messages/:message_id'],
  ['delete', '/channels/:channel_id/messages/:message_id'],
  ['post', '/channels/:channel_id/typing'],
  ['get', '/guilds/:guild_id/auto-moderation/rules'],
  ['post', '/guilds/:guild_id/auto-moderation/rules'],
  ['get', '/guilds/:guild_id/auto-moderation/rules/:rule_id'],
  ['patch', '/guilds/:guild_id/auto-moderation/rules/:rule_id'],
  ['delete', '/guilds/:guild_id/auto-moderation/rules/:rule_id'],
  ['get', '/guilds/:guild_id/channels'],
  ['get', '/guilds/:guild_id/messages/search'],
  ['put', '/channels/:channel_id/permissions/:overwrite_id'],
  ['delete', '/channels/:channel_id/permissions/:overwrite_id'],
  ['post', '/interactions'],
  ['post', '/interactions/:interaction_id/:interaction_token/callback'],
  ['post', '/webhooks/:webhook_id/:webhook_token'],
  ['get', '/webhooks/:webhook_id/:webhook_token/messages/:message_id'],
  ['patch', '/webhooks/:webhook_id/:webhook_token/messages/:message_id'],
  ['delete', '/webhooks/:webhook_id/:webhook_token/messages/:message_id'],
  ['get', '/applications/:application_id/skus'],
  ['get', '/applications/:application_id/entitlements'],
  ['post', '/applications/:application_id/entitlements'],
  ['get', '/applications/:application_id/entitlements/:entitlement_id'],
  ['delete', '/applications/:application_id/entitlements/:entitlement_id'],
  ['post', '/applications/:application_id/entitlements/:entitlement_id/consume'],
  ['get', '/users/@me/applications/:application_id/entitlements'],
  ['get', '/skus/:sku_id/subscriptions'],
  ['get', '/skus/:sku_id/subscriptions/:subscription_id'],
  ['post', '/lobbies'],
  ['put', '/lobbies'],
  ['get', '/lobbies/:lobby_id'],
  ['patch', '/lobbies/:lobby_id'],
  ['delete', '/lobbies/:lobby_id'],
  ['delete', '/lobbies/:lobby_id/members/@me'],
  ['post', '/lobbies/:lobby_id/members/bulk'],
  ['put', '/lobbies/:lobby_id/members/:user_id'],
  ['delete', '/lobbies/:lobby_id/members/:user_id'],
  ['post', '/lobbies/:lobby_id/messages'],
  ['get', '/lobbies/:lobby_id/messages'],
  ['patch', '/lobbies/:lobby_id/channel-linking'],
  ['put', '/lobbies/:lobby_id/messages/:message_id/moderation-metadata'],
  ['post', '/partner-sdk/token/bot'],
  ['post', '/partner-sdk/token'],
  ['patch', '/users/@me/account'],
  ['get', '/oauth2/keys'],
  ['post', '/partner-sdk/provisional-accounts/unmerge/bot'],
  ['post', '/partner-sdk/provisional-accounts/unmerge'],
];

/**
 * Routes served under /api/v9 too: the chat client invokes commands through API v9. They
 * are the v10 routes above mounted a second time (one declaration each), so the count
 * below does not count them again; the test after it checks that v9 serves them and
 * nothing else.
 */
const V9_ROUTES: Array<[Method, string]> = [['post', '/interactions']];

/** Admin routes (under /admin). */
const ADMIN_ROUTES: Array<[Method, string]> = [
  ['post', '/applications'],
  ['patch', '/applications/:application_id'],
  ['post', '/applications/:application_id/bot/reset-token'],
  ['post', '/applications/:application_id/reset-secret'],
  ['post', '/users'],
  ['get', '/users'],
  ['patch', '/users/:user_id'],
  ['post', '/users/:user_id/sessions'],
  ['post', '/users/:user_id/connections'],
  ['delete', '/users/:user_id/authorizations/:application_id'],
  ['post', '/guilds'],
  ['patch', '/guilds/:guild_id'],
  ['post', '/guilds/:guild_id/roles'],
  ['patch', '/guilds/:guild_id/roles/:role_id'],
  ['put', '/guilds/:guild_id/members/:user_id'],
  ['delete', '/guilds/:guild_id/members/:user_id'],
  ['post', '/guilds/:guild_id/channels'],
  ['patch', '/channels/:channel_id'],
  ['delete', '/channels/:channel_id'],
  ['post', '/oauth2/authorize'],
  ['post', '/applications/:application_id/skus'],
  ['post', '/entitlements'],
  ['post', '/entitlements/:entitlement_id/refund'],
  ['post', '/subscriptions'],
  ['post', '/subscriptions/:subscription_id/renew'],
  ['post', '/subscriptions/:subscription_id/cancel'],
  ['post', '/subscriptions/:subscription_id/end'],
  ['patch', '/subscriptions/:subscription_id'],
  ['put', '/applications/:application_id/identity-providers/:external_auth_type'],
  ['post', '/applications/:application_id/external-tokens'],
  ['post', '/applications/:application_id/provisional-tokens'],
  ['get', '/applications/:application_id/requests'],
  ['post', '/applications/:application_id/faults'],
  ['get', '/applications/:application_id/faults'],
  ['delete', '/applications/:application_id/faults'],
  ['delete', '/applications/:application_id/faults/:fault_id'],
  ['post', '/users/:user_id/ban'],
  ['delete', '/users/:user_id/ban'],
  ['delete', '/users/:user_id'],
  ['delete', '/applications/:application_id'],
  ['delete', '/guilds/:guild_id'],
  ['get', '/applications/:application_id/interactions'],
  ['get', '/applications/:application_id/interactions/:interaction_id'],
  ['post', '/applications/:application_id/interactions/:interaction_id/expire'],
  ['get', '/guilds/:guild_id'],
  ['get', '/guilds/:guild_id/members'],
];

/**
 * Write routes whose bodies' hostile fields are swept by their own end-to-end file
 * (test/provisional-accounts.e2e.test.ts: tokens over 10,240 characters, ids over 1,024,
 * U+0000, 2^64 ids, unknown types, another application's token), which holds the
 * provisional players and issuers they need; here they get the path and body-format cases.
 * The admin's `provisional-tokens` takes the Bot Token Endpoint's body (one validator in oauth).
 */
const BODIES_SWEPT_ELSEWHERE = [
  'post /partner-sdk/token/bot',
  'post /partner-sdk/token',
  'patch /users/@me/account',
  'put /applications/:application_id/identity-providers/:external_auth_type',
  'post /applications/:application_id/external-tokens',
  'post /applications/:application_id/provisional-tokens',
  'post /partner-sdk/provisional-accounts/unmerge/bot',
  'post /partner-sdk/provisional-accounts/unmerge',
  'post /users/:user_id/ban',
];

/** Discord's CDN path for message attachments (under /attachments): no credential, the URL is the capability. */
const ATTACHMENT_ROUTES: Array<[Method, string]> = [['get', '/:channel_id/:attachment_id/:filename']];

/** OpenID Connect discovery, at the site root (under /.well-known): no credential. */
const WELL_KNOWN_ROUTES: Array<[Method, string]> = [['get', '/openid-configuration']];

/** How many routes each of the gateway's route files declares (`method: '…', path: …`). */
function declaredRouteCount(): number {
  const folder = join(__dirname, '..', 'services', 'api-gateway', 'src', 'handlers');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(folder, file), 'utf8').match(/method: '\w+',\s*path: /g)?.length ?? 0)
    .reduce((a, b) => a + b, 0);
}

it('covers every route the gateway declares', () => {
  // Command routes are declared once for both scopes (global and guild).
  const commandRoutes = PUBLIC_ROUTES.filter(([, path]) =>
    path.includes('/guilds/:guild_id/commands'),
  ).filter(([, path]) => !path.includes('permissions')).length;
  expect(
    PUBLIC_ROUTES.length +
      ADMIN_ROUTES.length +
      ATTACHMENT_ROUTES.length +
      WELL_KNOWN_ROUTES.length -
      commandRoutes,
  ).toBe(declaredRouteCount());
});

it('serves under /api/v9 exactly the routes listed for it', async () => {
  for (const route of V9_ROUTES) expect(PUBLIC_ROUTES).toContainEqual(route);
  // With a real path, a route v9 serves answers anything but the route table's 404
  // ({code: 0}); the others answer exactly that.
  for (const [method, path] of PUBLIC_ROUTES) {
    const answer = await send(method, stack.apiUrl + '/api/v9' + fill(path, realId), {
      headers: { Authorization: worldInteractions.user.token, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const served = V9_ROUTES.some(([m, p]) => m === method && p === path);
    const unrouted = answer.status === 404 && JSON.parse(answer.text).code === 0;
    expect({ route: `${method} ${path}`, unrouted }).toEqual({
      route: `${method} ${path}`,
      unrouted: !served,
    });
  }
});

/** Path ids: malformed, out of range, unknown, and the real ones. */
const BAD_IDS = [
  'abc',
  '-1',
  '1.5',
  '18446744073709551616',
  '0',
  '99999999999999999',
  '%00',
  'x'.repeat(300),
];

/**
 * Path tokens no interaction has: too long, characters outside base64url, U+0000 and
 * non-ASCII escaped; and well-formed ones of no one (a token may hold dots, as Discord's do).
 */
const BAD_TOKENS = [
  'x'.repeat(600),
  'not+base64url=',
  '%00',
  'a%00b',
  '%C3%A9t%C3%A9',
  'a%20b',
  '...',
  'abc',
];

function fill(path: string, id: (name: string) => string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = id(name);
    // A ban ends every token and session of its user: the ban routes act on a user of their
    // own; so does the user's deletion.
    if (value !== world.user.id) return value;
    if (path.endsWith('/ban')) return bannedUserId;
    return path === '/users/:user_id' ? deletedUserId : value;
  });
}

function realId(name: string): string {
  switch (name) {
    case 'application_id':
      return world.application.id;
    case 'guild_id':
      return world.guild.id;
    case 'user_id':
      return world.user.id;
    case 'role_id':
      return world.role.id;
    // A pending interaction, and the webhook of an answered one with its follow-up: bodies
    // and queries reach the interactions service's own checks.
    case 'interaction_id':
      return worldInteractions.pending.id;
    case 'interaction_token':
      return worldInteractions.pending.token;
    case 'webhook_id':
      return worldInteractions.app.id;
    case 'webhook_token':
      return worldInteractions.answered.token;
    case 'message_id':
      return worldInteractions.answered.followupId;
    case 'lobby_id':
      return worldLobbyId;
    case 'channel_id':
      return world.channel.id;
    default:
      return '99999999999999999';
  }
}

/** Bodies no route accepts as they are. */
function badBodies(): Array<{ what: string; body: string | Buffer; type: string }> {
  const deep = (depth: number) => '{"options":['.repeat(depth) + '{}' + ']}'.repeat(depth);
  return [
    { what: 'malformed JSON', body: '{"name": ', type: 'application/json' },
    { what: 'an array', body: '[]', type: 'application/json' },
    { what: 'a number', body: '123', type: 'application/json' },
    { what: 'a string', body: '"text"', type: 'application/json' },
    { what: 'null', body: 'null', type: 'application/json' },
    { what: 'an empty body', body: '', type: 'application/json' },
    {
      what: 'wrong field types',
      body: '{"name":5,"description":[],"options":{},"type":"x","permissions":7}',
      type: 'application/json',
    },
    {
      what: 'huge numbers',
      body: '{"type":1e400,"name":"a","limit":-1e308,"permissions":[{"id":1e30,"type":1e30,"permission":1}]}',
      type: 'application/json',
    },
    {
      what: 'lone surrogates',
      body: '{"name":"\\ud800","description":"\\udfff x"}',
      type: 'application/json',
    },
    {
      what: 'lone surrogates in otherwise valid fields',
      body: '{"name":"a\\ud800b","username":"u\\udc00","description":"d\\ud800","permissions":"0","type":0,"nick":"\\ud800"}',
      type: 'application/json',
    },
    {
      what: 'prototype keys',
      body: '{"__proto__":{"admin":true},"constructor":{"prototype":{}},"name":"a"}',
      type: 'application/json',
    },
    { what: 'deep nesting', body: deep(2000), type: 'application/json' },
    { what: 'very deep arrays', body: '['.repeat(300_000) + ']'.repeat(300_000), type: 'application/json' },
    {
      what: 'very deep objects',
      body: '{"a":'.repeat(150_000) + '1' + '}'.repeat(150_000),
      type: 'application/json',
    },
    {
      what: 'deep nesting with a lone surrogate',
      body: '['.repeat(200_000) + '"\\ud800"' + ']'.repeat(200_000),
      type: 'application/json',
    },
    { what: 'a 2 MB body', body: Buffer.alloc(2 * 1024 * 1024, 'a'), type: 'application/json' },
    { what: 'text/plain', body: 'name=a', type: 'text/plain' },
    {
      what: 'a form body',
      body: 'name=a&description=b&grant_type[]=x',
      type: 'application/x-www-form-urlencoded',
    },
    // Forms whose payload_json is the body (routes that take message-like bodies).
    {
      what: 'payload_json twice',
      body: 'payload_json=%7B%7D&payload_json=%7B%7D',
      type: 'application/x-www-form-urlencoded',
    },
    {
      what: 'payload_json of malformed JSON',
      body: 'payload_json=%7B%22type%22%3A',
      type: 'application/x-www-form-urlencoded',
    },
    {
      what: 'payload_json with a lone surrogate',
      body: `payload_json=${encodeURIComponent('{"type":4,"data":{"content":"\\ud800"}}')}`,
      type: 'application/x-www-form-urlencoded',
    },
    {
      what: 'payload_json nested very deep',
      body: `payload_json=${'%5B'.repeat(100_000)}${'%5D'.repeat(100_000)}`,
      type: 'application/x-www-form-urlencoded',
    },
    { what: 'multipart without a boundary', body: multipart('b', '{}'), type: 'multipart/form-data' },
    {
      what: 'truncated multipart',
      body: multipart('b', '{"type":4}').slice(0, 60),
      type: 'multipart/form-data; boundary=b',
    },
    {
      what: 'multipart with eleven files',
      body:
        Array.from(
          { length: 11 },
          (_, i) =>
            `--b\r\nContent-Disposition: form-data; name="files[${i}]"; filename="a${i}.txt"\r\n` +
            'Content-Type: text/plain\r\n\r\nhello\r\n',
        ).join('') + '--b--\r\n',
      type: 'multipart/form-data; boundary=b',
    },
    {
      what: 'multipart with a file and payload_json naming another',
      body:
        '--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n' +
        '{"type":4,"content":"x","data":{"content":"x","attachments":[{"id":7}]},"attachments":[{"id":7}]}\r\n' +
        '--b\r\nContent-Disposition: form-data; name="files[0]"; filename="a.txt"\r\n' +
        'Content-Type: text/plain\r\n\r\nhello\r\n--b--\r\n',
      type: 'multipart/form-data; boundary=b',
    },
    {
      // POST /interactions needs payload_json first (it names the modal whose limit applies).
      what: 'multipart with a file before payload_json',
      body:
        '--b\r\nContent-Disposition: form-data; name="files[0]"; filename="a.txt"\r\n' +
        'Content-Type: text/plain\r\n\r\nhello\r\n' +
        '--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n' +
        '{"type":4,"data":{"content":"x","attachments":[{"id":7}]},"attachments":[{"id":7}]}\r\n--b--\r\n',
      type: 'multipart/form-data; boundary=b',
    },
    {
      what: 'multipart modal submit with a file, naming no open modal',
      body:
        '--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n' +
        '{"type":5,"application_id":"1","channel_id":"1","data":{"id":"1","custom_id":"x","components":[]}}\r\n' +
        '--b\r\nContent-Disposition: form-data; name="files[0]"; filename="a.txt"\r\n' +
        'Content-Type: text/plain\r\n\r\nhello\r\n--b--\r\n',
      type: 'multipart/form-data; boundary=b',
    },
    {
      what: 'multipart with U+0000 in a part name',
      body: multipart('b', '{}').replace('payload_json', 'payload\u0000json'),
      type: 'multipart/form-data; boundary=b',
    },
    {
      what: 'multipart payload_json of malformed JSON',
      body: multipart('b', '{"type": '),
      type: 'multipart/form-data; boundary=b',
    },
    {
      what: 'multipart with ten thousand parts',
      body:
        Array.from(
          { length: 10_000 },
          (_, i) => `--b\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\nv\r\n`,
        ).join('') + '--b--\r\n',
      type: 'multipart/form-data; boundary=b',
    },
  ];
}

/** A multipart/form-data body with one part, `payload_json`. */
function multipart(boundary: string, payloadJson: string): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n` +
    `Content-Type: application/json\r\n\r\n${payloadJson}\r\n--${boundary}--\r\n`
  );
}

/** Query strings a client might send by mistake. */
const BAD_QUERIES = [
  '?with_localizations=maybe&with_counts=2&limit=abc',
  '?limit=-1&before=abc&after=-5',
  '?limit=1&limit=2&with_localizations=true&with_localizations=false',
  '?limit[a]=1&channel_id[]=2&locale=xx-XX',
  '?channel_id=abc&after=18446744073709551616',
  `?${'a'.repeat(6000)}=1`,
  '?wait=maybe&with_response=2&with_components=x&thread_id=abc',
  '?wait[]=true&with_response=&thread_id=18446744073709551616',
  '?dry_run=maybe&dry_run=true&after=1&limit=0',
  '?dry_run[]=1&dry_run[x]=true',
];

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

async function send(
  method: Method,
  url: string,
  init: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: method.toUpperCase(),
    headers: init.headers,
    body: method === 'get' || method === 'delete' ? undefined : init.body,
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

/** The answer is a client error or success in the API's shape, never a server error. */
function expectWellFormed(answer: Answer, what: string): void {
  const context =
    `${what} → ${answer.status} ${answer.text.slice(0, 300)}` +
    (answer.status >= 500 ? `\n${stack.recentLogs(8)}` : '');
  expect({ context, serverError: answer.status >= 500 }).toEqual({ context, serverError: false });
  if (answer.status === 204) return;
  expect({ context, type: answer.contentType }).toEqual({ context, type: 'application/json' });
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (answer.status >= 400) {
    // The API's error body, or RFC 6749's on the token endpoints.
    const shaped =
      (typeof body.message === 'string' && typeof body.code === 'number') || typeof body.error === 'string';
    expect({ context, shaped }).toEqual({ context, shaped: true });
  }
}

describe.each([
  ['public', '/api/v10', PUBLIC_ROUTES],
  ['v9', '/api/v9', V9_ROUTES],
  ['admin', '/admin', ADMIN_ROUTES],
  ['attachment', '/attachments', ATTACHMENT_ROUTES],
  ['well-known', '/.well-known', WELL_KNOWN_ROUTES],
] as const)('%s routes', (kind, base, routes) => {
  /** The credential a route takes: the chat client's session for an invocation, else a bot's (or the admin's). */
  const authOf = (path: string): Record<string, string> =>
    kind === 'admin'
      ? { Authorization: `Admin ${stack.adminToken}` }
      : path === '/interactions'
        ? { Authorization: worldInteractions.user.token }
        : { Authorization: `Bot ${world.application.botToken}` };

  it.each(routes)(
    '%s %s answers malformed ids, bodies and queries with 4xx JSON errors',
    async (method, path) => {
      const auth = () => authOf(path);
      for (const name of path.match(/:(\w+)/g) ?? []) {
        for (const bad of name.endsWith('_token') ? [...BAD_TOKENS, ...BAD_IDS] : BAD_IDS) {
          const url = stack.apiUrl + base + fill(path, (n) => (`:${n}` === name ? bad : realId(n)));
          expectWellFormed(
            await send(method, url, {
              headers: { ...auth(), 'Content-Type': 'application/json' },
              body: '{}',
            }),
            `${method} ${url.slice(0, 200)}`,
          );
        }
      }
      const url = stack.apiUrl + base + fill(path, realId);
      if (method !== 'get' && method !== 'delete') {
        for (const { what, body, type } of badBodies()) {
          expectWellFormed(
            await send(method, url, { headers: { ...auth(), 'Content-Type': type }, body }),
            `${method} ${path} with ${what}`,
          );
        }
      }
      for (const query of BAD_QUERIES) {
        expectWellFormed(
          await send(method, url + query, { headers: auth() }),
          `${method} ${path}${query.slice(0, 80)}`,
        );
      }
    },
  );

  it.each(routes)(
    '%s %s answers missing, malformed and foreign credentials with 4xx JSON errors',
    async (method, path) => {
      const url = stack.apiUrl + base + fill(path, realId);
      const credentials = [
        undefined,
        '',
        'Bot',
        'Bot ',
        'Bearer',
        'Bearer not-a-token',
        'Basic !!!',
        `Bot ${foreignBotToken}`,
        `Bot ${world.application.botToken}x`,
        `Admin ${stack.adminToken}x`,
        `Bot ${'é'.repeat(200)}`,
        'Bot a.b.c.d.e',
        `Bot ${'a'.repeat(8000)}`,
        // A chat-client session: its own kind of credential, refused where a bot's is
        // wanted; altered, prefixed, or in place of a token.
        worldInteractions.user.token,
        `${worldInteractions.user.token}x`,
        `Bot ${worldInteractions.user.token}`,
        `Bearer ${worldInteractions.user.token}`,
        'a.b',
      ];
      for (const credential of credentials) {
        const headers: Record<string, string> = {
          'Content-Type': 'application/json',
          'X-Discord-Locale': 'no-such-locale',
          'Accept-Language': 'zz;q=abc, *;q=-1',
        };
        if (credential !== undefined) headers.Authorization = credential;
        expectWellFormed(
          await send(method, url, { headers, body: '{}' }),
          `${method} ${path} with Authorization ${String(credential).slice(0, 40)}`,
        );
      }
    },
  );
});

describe('the JSON body reader', () => {
  // Its own application: the admin sweep above resets the demo application's token.
  let app: { id: string; bot_token: string };
  beforeAll(async () => {
    app = await createApplication(stack, { name: 'Body Reader App', owner_id: world.user.id });
  });
  const post = (body: string) =>
    send('post', `${stack.apiUrl}/api/v10/applications/${app.id}/commands`, {
      headers: { Authorization: `Bot ${app.bot_token}`, 'Content-Type': 'application/json' },
      body,
    });
  const nested = (depth: number) =>
    `{"name":"nested","description":"d","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

  it('refuses a lone surrogate, which no database can store, as malformed JSON (50109)', async () => {
    const lone = await post('{"name":"surrogate","description":"half a pair: \\ud83d"}');
    expect(lone.status).toBe(400);
    expect(JSON.parse(lone.text)).toEqual({
      code: 50109,
      message: 'The request body contains invalid JSON.',
    });
    const paired = await post('{"name":"surrogate","description":"a whole pair: \\ud83d\\ude00"}');
    expect(paired.status).toBe(201);
    expect(JSON.parse(paired.text).description).toBe('a whole pair: 😀');
  });

  it('refuses bodies nested deeper than 64 levels as malformed JSON (50109)', async () => {
    expect((await post(nested(64))).status).toBe(201);
    const deep = await post(nested(65));
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text)).toMatchObject({ code: 50109 });
    // Brackets inside strings are text, not nesting.
    expect((await post(`{"name":"brackets","description":"${'['.repeat(90)}"}`)).status).toBe(201);
  });
});

describe('an answer with more errors than a call between services carries', () => {
  it('answers 400 with the first errors, at once, not a 504 at the deadline', async () => {
    const app = await createApplication(stack, { name: 'Many Errors App', owner_id: world.user.id });
    // A hundred commands with 25 bad options each: some 10,000 errors, several hundred kB.
    const commands = Array.from({ length: 100 }, (_, i) => ({
      name: `c${i}`,
      description: 'd',
      options: Array.from({ length: 25 }, (_, j) => ({ type: 99, name: `BAD NAME ${j}`, description: 5 })),
    }));
    const answer = await send('put', `${stack.apiUrl}/api/v10/applications/${app.id}/commands`, {
      headers: { Authorization: `Bot ${app.bot_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(commands),
    });
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.text);
    expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(body.errors['0'].options['0'].type._errors[0].code).toBe('BASE_TYPE_CHOICES');
    // And the connection it went over still serves: the next call is answered.
    const next = await send('get', `${stack.apiUrl}/api/v10/applications/${app.id}/commands`, {
      headers: { Authorization: `Bot ${app.bot_token}` },
    });
    expect(next.status).toBe(200);
  });
});

/**
 * Every route with an otherwise valid request, one field at a time made hostile: each id
 * (path, query, body, form) as 2^63 and 2^64 − 1, U+0000 in each string field and key, a
 * megabyte of digits in each numeric-string field, 100,000 characters in each string
 * field; where a template says so, numbers no field takes in its number fields (2^64 − 1
 * and a megabyte of digits as JSON numbers), the largest id (2^63 − 1, no one's) in its
 * id fields, path tokens no interaction has and someone else's tokens and messages, and
 * every hostile body again as a form's payload_json. Each answer is the 4xx the field
 * deserves (50035 at its path; the OAuth2 body on the token endpoints), and afterwards
 * the database holds exactly what it held before: no invocation recorded or delivered, no
 * interaction acknowledged, no message posted, edited or deleted.
 */
describe('ids above 2^63 - 1, U+0000 and megabyte numbers in every field', () => {
  const REDIRECT = 'https://sweep.example/callback';
  const TOO_LARGE_IDS = ['9223372036854775808', '18446744073709551615'];
  /** Text longer than any field takes (and than an error can quote): 200 kB as UTF-8. */
  const LONG_TEXT = 'é'.repeat(100_000);
  /** 2^63 - 1: a valid snowflake, and no one's. */
  const LARGEST_ID = '9223372036854775807';
  const MEGABYTE_OF_NINES = '9'.repeat(1_000_000);
  /** Digits below api-gateway's bound on any string (8192), so that the services judge them. */
  const KILOBYTES_OF_NINES = '9'.repeat(8000);
  const BIT_SET_KEYS = new Set(['permissions', 'default_member_permissions', 'allow', 'deny']);

  let w: DemoWorld;
  /** What the sweep's component and modal submit bodies name: a message with a select, an open modal. */
  let followOns: {
    click: Record<string, unknown>;
    submit: Record<string, unknown>;
    nonces: [string, string];
  };
  let bearer: string;
  let session: string;
  let globalCommandId: string;
  let guildCommandId: string;
  /** The sweep app's lobby (its owner a member who may link it) and a message in it. */
  let lobbyId: string;
  let lobbyMessageId: string;
  /** A message the sweep app's bot sent to its channel (the channel message routes' `:message_id`). */
  let channelMessageId: string;
  /** An AutoMod rule of the sweep guild, made by its owner (the rule routes' `:rule_id`). */
  let autoModRuleId: string;
  /** A voice channel whose status the sweep app's bot may set, and one of a guild it is not in. */
  let voiceChannelId: string;
  let foreignVoiceChannelId: string;
  /** The sweep's own interactions app, its command, session and interactions. */
  let ix: InteractionFixture;
  /** The sweep app's SKUs (a consumable, a subscription), an entitlement and a subscription of its owner. */
  let money: { consumable: string; subscriptionSku: string; entitlement: string; subscription: string };
  let before: Record<string, string>;
  /** Interactions the endpoint had received when the snapshot was taken. */
  let receivedBefore: number;

  /** A digest of every row the services keep (outbox: its ids, as the relay marks rows published). */
  async function snapshot(): Promise<Record<string, string>> {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows: tables } = await client.query<{ schema: string; name: string }>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_schema IN ('registry', 'permissions', 'oauth', 'interactions', 'lobby')
            AND table_type = 'BASE TABLE'
            AND table_name NOT IN ('snowflake_lease', '_prisma_migrations')`,
      );
      const digests: Record<string, string> = {};
      for (const { schema, name } of tables) {
        // A refused callback is recorded in its interaction's timeline (the admin API shows
        // the refusal, and the timeout's reason names it): that record, and nothing else.
        const row =
          name === 'outbox'
            ? 't.id::text'
            : name === 'interaction_trace'
              ? "(to_jsonb(t) - 'refusals')::text"
              : 'row_to_json(t)::text';
        const { rows } = await client.query<{ digest: string | null; count: string }>(
          `SELECT md5(string_agg(${row}, E'\\n' ORDER BY ${row})) AS digest, count(*)::text AS count
             FROM "${schema}"."${name}" t`,
        );
        digests[`${schema}.${name}`] = `${rows[0]?.count}:${rows[0]?.digest}`;
      }
      return digests;
    } finally {
      await client.end();
    }
  }

  /** Write routes that read no body. */
  const BODILESS_WRITES = [
    'put /applications/:application_id/guilds/:guild_id/commands/permissions',
    'post /applications/:application_id/bot/reset-token',
    'post /applications/:application_id/reset-secret',
    'post /users/:user_id/sessions',
    'post /applications/:application_id/entitlements/:entitlement_id/consume',
    'post /entitlements/:entitlement_id/refund',
    'post /subscriptions/:subscription_id/renew',
    'post /subscriptions/:subscription_id/cancel',
    'post /subscriptions/:subscription_id/end',
    'put /channels/:channel_id/messages/pins/:message_id',
    'put /channels/:channel_id/pins/:message_id',
    'put /channels/:channel_id/messages/:message_id/reactions/:emoji/@me',
    'post /channels/:channel_id/typing',
  ];
  /** Public routes that share their method and path with an admin route, and take no body there. */
  const PUBLIC_BODILESS_WRITES = ['post /guilds'];

  const bot = () => `Bot ${w.application.botToken}`;
  const admin = () => `Admin ${stack.adminToken}`;

  type Path = (string | number)[];
  /** A 400 / 50035 with `code` among the errors at `at`. */
  type FieldError = { at: Path; code: string };
  /** A 400 / 50035 with an error at `under` or at a field holding it (whichever rule refuses it first). */
  type ErrorUnder = { under: Path };

  interface Template {
    auth: () => string;
    query?: Record<string, string>;
    body?: unknown;
    form?: Record<string, string>;
    /** String leaves holding ids though their key does not say so, with the code a hostile id gets there. */
    idLeaves?: FieldError[];
    /**
     * Number leaves swept with numbers no field takes, sent as JSON numbers: 2^64 - 1 (an
     * integer to JavaScript) and a megabyte of digits (Infinity once parsed); the answer each
     * deserves.
     */
    numberLeaves?: Array<{ at: Path; huge: FieldError; megabyte: FieldError }>;
    /** How the route refuses a path token that is no token of its interactions. */
    tokenRefusal?: { status: number; code: number };
    /** Real values of path params that are someone else's (another app's token or message...). */
    foreign?: Array<{ what: string; param: string; value: string; expect: Case['expect'] }>;
    /** Body ids that are swept with the largest id (2^63 - 1), which names nothing: the answer each gets. */
    unknownIds?: Array<{ at: Path; expect: Case['expect'] }>;
    /** The route also takes its body as a form's `payload_json`: every hostile body goes that way too. */
    formPayload?: boolean;
  }

  const OPTION_INVALID = 'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID';

  /** A KEYWORD AutoMod rule using every field: keywords, a pattern, an allow list, each action, exemptions. */
  const autoModRule = (extra: Record<string, unknown> = {}) => ({
    name: 'Sweep rule',
    event_type: 1,
    trigger_type: 1,
    trigger_metadata: { keyword_filter: ['dust*'], regex_patterns: ['d[u0]st'], allow_list: ['dusty'] },
    actions: [
      { type: 1, metadata: { custom_message: 'Swept' } },
      { type: 2, metadata: { channel_id: w.channel.id } },
      { type: 3, metadata: { duration_seconds: 60 } },
    ],
    enabled: true,
    exempt_roles: [w.role.id],
    exempt_channels: [w.channel.id],
    ...extra,
  });
  const coerce = (at: Path): FieldError => ({ at, code: 'NUMBER_TYPE_COERCE' });

  /** A message body using every field a message takes: text, an embed of every part, mentions. */
  const message = (extra: Record<string, unknown> = {}) => ({
    content: 'Swept clean',
    flags: 4,
    embeds: [
      {
        title: 'Sweep',
        description: 'Every corner',
        url: 'https://sweep.example/report',
        timestamp: '2025-01-01T00:00:00.000Z',
        color: 5793266,
        fields: [{ name: 'Floor', value: 'Clean', inline: true }],
        footer: { text: 'Sweeper' },
        author: { name: 'Broom', url: 'https://sweep.example/broom' },
      },
    ],
    allowed_mentions: { parse: [], users: [w.user.id], roles: [w.role.id], replied_user: false },
    components: [
      { type: 1, components: [{ type: 2, style: 1, label: 'Sweep', custom_id: 'sweep-button' }] },
      {
        type: 1,
        components: [
          {
            type: 3,
            custom_id: 'sweep-select',
            placeholder: 'Choose',
            options: [{ label: 'Floor', value: 'floor', description: 'The floor' }],
          },
        ],
      },
    ],
    ...extra,
  });

  /** A message's number fields under `base`: its flags, an embed's color, a button's style. */
  const messageNumbers = (base: Path): NonNullable<Template['numberLeaves']> => [
    {
      at: [...base, 'components', 0, 'components', 0, 'style'],
      huge: { at: [...base, 'components', 0, 'components', 0, 'style'], code: 'BASE_TYPE_CHOICES' },
      megabyte: coerce([...base, 'components', 0, 'components', 0, 'style']),
    },
    {
      at: [...base, 'flags'],
      huge: { at: [...base, 'flags'], code: 'MESSAGE_FLAGS_INVALID' },
      megabyte: coerce([...base, 'flags']),
    },
    {
      at: [...base, 'embeds', 0, 'color'],
      huge: { at: [...base, 'embeds', 0, 'color'], code: 'NUMBER_TYPE_MAX' },
      megabyte: coerce([...base, 'embeds', 0, 'color']),
    },
  ];

  /** How the webhook routes refuse what is not this application's live interaction token, or its message. */
  const INVALID_WEBHOOK_TOKEN = { status: 401, code: 50027 };
  const webhookForeign = (withMessage: boolean): NonNullable<Template['foreign']> => [
    {
      what: "another application's interaction token",
      param: 'webhook_token',
      value: worldInteractions.answered.token,
      expect: INVALID_WEBHOOK_TOKEN,
    },
    {
      what: "another application's id with this token",
      param: 'webhook_id',
      value: worldInteractions.app.id,
      expect: INVALID_WEBHOOK_TOKEN,
    },
    ...(withMessage
      ? [
          {
            what: "a message of another application's interaction",
            param: 'message_id',
            value: worldInteractions.answered.originalId,
            expect: { status: 404, code: 10008 },
          },
        ]
      : []),
  ];

  const command = (extra: Record<string, unknown> = {}) => ({
    name: 'sweep',
    description: 'Sweeps',
    name_localizations: { fr: 'balayer' },
    description_localizations: { fr: 'Balaie' },
    default_member_permissions: '8',
    options: [
      {
        type: 3,
        name: 'what',
        description: 'What to sweep',
        choices: [{ name: 'Floor', name_localizations: { fr: 'Sol' }, value: 'floor' }],
      },
    ],
    ...extra,
  });

  /** A request that would succeed (or fail for a reason of its own) for every route. */
  function templateOf(method: Method, path: string, kind: 'public' | 'v9' | 'admin' = 'public'): Template {
    const key = `${method} ${path}`;
    // POST /guilds of the public API: refused to bots (403 / 20001) whatever the body, which it never reads.
    if (kind !== 'admin' && key === 'post /guilds') return { auth: bot };
    const guildPath = path.includes('/guilds/:guild_id/commands');
    switch (key) {
      case 'get /applications/:application_id/commands':
      case 'get /applications/:application_id/guilds/:guild_id/commands':
        return { auth: bot, query: { with_localizations: 'true' } };
      case 'post /applications/:application_id/commands':
      case 'post /applications/:application_id/guilds/:guild_id/commands':
      case 'patch /applications/:application_id/commands/:command_id':
      case 'patch /applications/:application_id/guilds/:guild_id/commands/:command_id':
        return { auth: bot, body: command() };
      case 'put /applications/:application_id/commands':
      case 'put /applications/:application_id/guilds/:guild_id/commands':
        // The guild scope sweeps the (ACS-only) dry run, the global one the real PUT.
        return {
          auth: bot,
          query: { dry_run: guildPath ? 'true' : 'false' },
          body: [command({ id: guildPath ? guildCommandId : globalCommandId })],
        };
      case 'get /applications/:application_id/guild-command-index':
        return { auth: bot, query: { after: '1', limit: '10' } };
      case 'put /applications/:application_id/guilds/:guild_id/commands/:command_id/permissions':
        return {
          auth: () => `Bearer ${bearer}`,
          body: { permissions: [{ id: w.role.id, type: 1, permission: true }] },
        };
      case 'get /guilds/:guild_id/application-command-index':
        return { auth: () => session, query: { channel_id: w.channel.id } };
      case 'get /users/@me/guilds':
        return { auth: bot, query: { before: '9000000000000000000', after: '1', limit: '10', shard: '0' } };
      case 'get /channels/:channel_id/messages/pins':
        return { auth: bot, query: { before: '2026-01-01T00:00:00+00:00', limit: '10' } };
      case 'post /users/@me/channels':
        return { auth: bot, body: { recipient_id: w.user.id } };
      case 'post /attachments/refresh-urls':
        return { auth: bot, body: { attachment_urls: [`${stack.apiUrl}/attachments/1/2/a.png`] } };
      case 'post /channels/:channel_id/messages':
        return {
          auth: bot,
          body: message({ nonce: '20260101', tts: false }),
          formPayload: true,
          numberLeaves: messageNumbers([]),
          foreign: [
            {
              what: 'a channel of a guild the bot is not in',
              param: 'channel_id',
              value: foreignVoiceChannelId,
              expect: { status: 403, code: 50001 },
            },
          ],
        };
      // The guild's owner (MANAGE_GUILD) manages its rules; every field of each kind of rule.
      case 'post /guilds/:guild_id/auto-moderation/rules':
        return {
          auth: () => session,
          body: autoModRule(),
          idLeaves: [
            { at: ['exempt_roles', 0], code: 'NUMBER_TYPE_MAX' },
            { at: ['exempt_channels', 0], code: 'NUMBER_TYPE_MAX' },
          ],
        };
      case 'patch /guilds/:guild_id/auto-moderation/rules/:rule_id':
        return {
          auth: () => session,
          body: autoModRule({ name: 'Renamed' }),
          idLeaves: [
            { at: ['exempt_roles', 0], code: 'NUMBER_TYPE_MAX' },
            { at: ['exempt_channels', 0], code: 'NUMBER_TYPE_MAX' },
          ],
        };
      case 'post /channels/:channel_id/messages/bulk-delete':
        // The bot holds no MANAGE_MESSAGES: as it is, the template is refused with 50013.
        return {
          auth: bot,
          body: { messages: [channelMessageId, ix.answered.followupId] },
          idLeaves: [
            { at: ['messages', 0], code: 'NUMBER_TYPE_MAX' },
            { at: ['messages', 1], code: 'NUMBER_TYPE_MAX' },
          ],
        };
      case 'post /channels/:channel_id/typing':
        // No body: what is sent is not read.
        return {
          auth: bot,
          foreign: [
            {
              what: 'a channel of a guild the bot is not in',
              param: 'channel_id',
              value: foreignVoiceChannelId,
              expect: { status: 403, code: 50001 },
            },
          ],
        };
      case 'get /channels/:channel_id/messages':
        return { auth: bot, query: { before: '9000000000000000000', limit: '10' } };
      case 'patch /channels/:channel_id/messages/:message_id':
        return {
          auth: bot,
          body: message({ content: 'Swept again' }),
          formPayload: true,
          numberLeaves: messageNumbers([]),
        };
      case 'put /channels/:channel_id/voice-status':
        return {
          auth: bot,
          body: { status: 'Sweeping' },
          foreign: [
            {
              what: 'a voice channel of a guild the bot is not in',
              param: 'channel_id',
              value: foreignVoiceChannelId,
              expect: { status: 403, code: 50001 },
            },
            {
              what: 'a text channel',
              param: 'channel_id',
              value: w.channel.id,
              expect: { status: 400, code: 50024 },
            },
          ],
        };
      case 'post /interactions':
        return {
          auth: () => ix.user.token,
          query: { wait: 'true' },
          body: ix.invocation,
          formPayload: true,
          unknownIds: [
            { at: ['application_id'], expect: { status: 404, code: 10002 } },
            // No command of that id in that guild.
            {
              at: ['guild_id'],
              expect: { at: ['data', 'id'], code: 'INTERACTION_APPLICATION_COMMAND_INVALID' },
            },
            { at: ['channel_id'], expect: { status: 404, code: 10003 } },
            {
              at: ['data', 'id'],
              expect: { at: ['data', 'id'], code: 'INTERACTION_APPLICATION_COMMAND_INVALID' },
            },
            {
              at: ['data', 'version'],
              expect: { at: ['data'], code: 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION' },
            },
            {
              at: ['data', 'options', 2, 'value'],
              expect: { at: ['data', 'options', 2, 'value'], code: OPTION_INVALID },
            },
            {
              at: ['data', 'options', 3, 'value'],
              expect: { at: ['data', 'options', 3, 'value'], code: OPTION_INVALID },
            },
          ],
          idLeaves: [
            { at: ['data', 'version'], code: 'NUMBER_TYPE_MAX' },
            // A USER and a CHANNEL option's values: ids of things that exist, else invalid.
            { at: ['data', 'options', 2, 'value'], code: OPTION_INVALID },
            { at: ['data', 'options', 3, 'value'], code: OPTION_INVALID },
          ],
          numberLeaves: [
            { at: ['type'], huge: { at: ['type'], code: 'BASE_TYPE_CHOICES' }, megabyte: coerce(['type']) },
            {
              // A type the command does not have: the client's read-repair code at `data`.
              at: ['data', 'type'],
              huge: { at: ['data'], code: 'INTERACTION_APPLICATION_COMMAND_INVALID' },
              megabyte: coerce(['data', 'type']),
            },
            ...[0, 1, 2, 3].map((i) => ({
              at: ['data', 'options', i, 'type'],
              huge: { at: ['data', 'options', i, 'type'], code: OPTION_INVALID },
              megabyte: coerce(['data', 'options', i, 'type']),
            })),
            {
              // The INTEGER option (1 to 5): beyond ±2^53 and Infinity are no integers.
              at: ['data', 'options', 1, 'value'],
              huge: { at: ['data', 'options', 1, 'value'], code: OPTION_INVALID },
              megabyte: { at: ['data', 'options', 1, 'value'], code: OPTION_INVALID },
            },
          ],
        };
      case 'post /interactions/:interaction_id/:interaction_token/callback':
        return {
          auth: () => '',
          query: { with_response: 'true' },
          body: { type: 4, data: message({ tts: false }) },
          formPayload: true,
          numberLeaves: [
            { at: ['type'], huge: { at: ['type'], code: 'BASE_TYPE_CHOICES' }, megabyte: coerce(['type']) },
            ...messageNumbers(['data']),
          ],
          tokenRefusal: { status: 404, code: 10062 },
          foreign: [
            {
              what: 'an answered interaction with this token',
              param: 'interaction_id',
              value: ix.answered.id,
              expect: { status: 404, code: 10062 },
            },
            {
              what: "another interaction's token",
              param: 'interaction_token',
              value: ix.answered.token,
              expect: { status: 404, code: 10062 },
            },
          ],
        };
      case 'post /webhooks/:webhook_id/:webhook_token':
        return {
          auth: () => '',
          query: { wait: 'true' },
          body: message({ tts: false }),
          formPayload: true,
          numberLeaves: messageNumbers([]),
          tokenRefusal: INVALID_WEBHOOK_TOKEN,
          foreign: webhookForeign(false),
        };
      case 'get /webhooks/:webhook_id/:webhook_token/messages/:message_id':
      case 'delete /webhooks/:webhook_id/:webhook_token/messages/:message_id':
        return { auth: () => '', tokenRefusal: INVALID_WEBHOOK_TOKEN, foreign: webhookForeign(true) };
      case 'patch /webhooks/:webhook_id/:webhook_token/messages/:message_id':
        return {
          auth: () => '',
          body: message({ content: 'Swept again' }),
          formPayload: true,
          numberLeaves: messageNumbers([]),
          tokenRefusal: INVALID_WEBHOOK_TOKEN,
          foreign: webhookForeign(true),
        };
      case 'post /oauth2/token':
        return {
          auth: () => '',
          form: {
            grant_type: 'client_credentials',
            scope: 'identify',
            client_id: w.application.id,
            client_secret: w.application.clientSecret,
          },
        };
      case 'post /oauth2/token/revoke':
        return {
          auth: () => '',
          form: {
            token: 'not-a-token',
            token_type_hint: 'access_token',
            client_id: w.application.id,
            client_secret: w.application.clientSecret,
          },
        };
      case 'patch /applications/@me':
        return {
          auth: bot,
          body: {
            description: 'Sweeps',
            tags: ['sweep'],
            install_params: { scopes: ['bot'], permissions: '8' },
            custom_install_url: 'https://sweep.example/install',
          },
        };
      case 'post /applications':
      case 'patch /applications/:application_id':
        return {
          auth: admin,
          body: {
            name: 'Sweep App 2',
            description: 'Sweeps',
            tags: ['sweep'],
            redirect_uris: [REDIRECT],
            owner_id: w.user.id,
            event_webhooks_types: ['APPLICATION_AUTHORIZED'],
          },
        };
      case 'post /users':
        return {
          auth: admin,
          body: { username: 'sweeper', global_name: 'Sweeper', locale: 'fr', email: 's@x.example' },
        };
      case 'patch /users/:user_id':
        return {
          auth: admin,
          body: {
            global_name: 'Sweeper',
            locale: 'fr',
            profile_privacy: 'friends_and_small_servers',
            primary_guild: {
              identity_guild_id: w.guild.id,
              identity_enabled: true,
              tag: 'SWP',
              badge: 'abc',
            },
          },
        };
      case 'post /users/:user_id/connections':
        return { auth: admin, body: { type: 'github', id: 'octocat', name: 'Octocat' } };
      case 'post /guilds':
        return { auth: admin, body: { name: 'Sweep Guild 2', owner_id: w.user.id } };
      case 'patch /guilds/:guild_id':
        return { auth: admin, body: { name: w.guild.name, attachment_size_limit: null } };
      case 'post /guilds/:guild_id/roles':
      case 'patch /guilds/:guild_id/roles/:role_id':
        return { auth: admin, body: { name: 'Sweepers', permissions: '1024' } };
      case 'put /guilds/:guild_id/members/:user_id':
        return { auth: admin, body: { roles: [w.role.id], nick: 'sweepy' } };
      // Modify Guild Member by the bot (its target the guild's owner: no hostile body gets that far).
      case 'patch /guilds/:guild_id/members/:user_id':
        return {
          auth: bot,
          body: {
            nick: 'sweepy',
            roles: [w.role.id],
            communication_disabled_until: '2030-01-01T00:00:00.000Z',
          },
        };
      case 'post /guilds/:guild_id/channels':
        return {
          auth: admin,
          body: {
            name: 'sweeping',
            type: 0,
            parent_id: w.channel.id,
            permission_overwrites: [{ id: w.role.id, type: 0, allow: '1024', deny: '2048' }],
          },
        };
      case 'patch /channels/:channel_id':
        return {
          auth: admin,
          body: {
            name: 'swept',
            permission_overwrites: [{ id: w.role.id, type: 0, allow: '1024', deny: '2048' }],
          },
        };
      case 'put /channels/:channel_id/permissions/:overwrite_id':
        return {
          auth: bot,
          body: { type: 0, allow: '1024', deny: '2048' },
          numberLeaves: [
            { at: ['type'], huge: { at: ['type'], code: 'BASE_TYPE_CHOICES' }, megabyte: coerce(['type']) },
          ],
        };
      case 'post /lobbies':
      case 'patch /lobbies/:lobby_id':
        return {
          auth: bot,
          body: {
            metadata: { map: 'sweep' },
            members: [{ id: w.user.id, metadata: { team: 'brooms' }, flags: 1 }],
            idle_timeout_seconds: 604800,
            override_event_webhooks_url: 'https://sweep.example/lobby',
          },
          foreign: lobbyForeign(path),
        };
      case 'put /lobbies':
        return {
          auth: () => `Bearer ${bearer}`,
          body: {
            secret: 'sweep-secret',
            lobby_metadata: { map: 'sweep' },
            member_metadata: { seat: 'one' },
          },
        };
      case 'get /lobbies/:lobby_id':
      case 'delete /lobbies/:lobby_id/members/:user_id':
        return { auth: bot, foreign: lobbyForeign(path) };
      // Idempotent: another application's lobby is answered 204 and left as it is.
      case 'delete /lobbies/:lobby_id':
        return {
          auth: bot,
          foreign: [
            {
              what: "another application's lobby",
              param: 'lobby_id',
              value: worldLobbyId,
              expect: { status: 204 },
            },
          ],
        };
      case 'delete /lobbies/:lobby_id/members/@me':
        return { auth: () => `Bearer ${bearer}`, foreign: lobbyForeign(path) };
      case 'put /lobbies/:lobby_id/members/:user_id':
        return {
          auth: bot,
          body: { metadata: { seat: 'two' }, flags: 1, additional_name: 'Sweeper' },
          foreign: lobbyForeign(path),
        };
      case 'post /lobbies/:lobby_id/members/bulk':
        return {
          auth: bot,
          body: [{ id: w.user.id, metadata: { seat: 'three' }, flags: 1, additional_name: 'Sweeper' }],
          unknownIds: [{ at: [0, 'id'], expect: { status: 404, code: 10013 } }],
          foreign: lobbyForeign(path),
        };
      case 'post /lobbies/:lobby_id/messages':
        return { auth: () => `Bearer ${bearer}`, body: { content: 'Swept', metadata: { broom: 'yes' } } };
      case 'get /lobbies/:lobby_id/messages':
        return { auth: () => `Bearer ${bearer}`, query: { limit: '50' } };
      case 'patch /lobbies/:lobby_id/channel-linking':
        return { auth: () => `Bearer ${bearer}`, body: { channel_id: w.channel.id } };
      case 'put /lobbies/:lobby_id/messages/:message_id/moderation-metadata':
        return { auth: bot, body: { verdict: 'clean' }, foreign: lobbyForeign(path) };
      case 'post /oauth2/authorize':
        return {
          auth: admin,
          body: {
            client_id: w.application.id,
            user_id: w.user.id,
            scope: 'bot applications.commands',
            guild_id: w.guild.id,
            permissions: '8',
            redirect_uri: REDIRECT,
            state: 'sweep',
          },
        };
      case 'get /applications/:application_id/entitlements':
        return {
          auth: bot,
          query: {
            user_id: w.user.id,
            guild_id: w.guild.id,
            sku_ids: money.consumable,
            before: '9000000000000000000',
            after: '1',
            limit: '10',
            exclude_ended: 'true',
            exclude_deleted: 'false',
          },
        };
      case 'post /applications/:application_id/entitlements':
        return {
          auth: bot,
          body: { sku_id: money.consumable, owner_id: w.guild.id, owner_type: 1 },
          unknownIds: [{ at: ['sku_id'], expect: { status: 404, code: 10027 } }],
        };
      case 'get /users/@me/applications/:application_id/entitlements':
        return { auth: () => `Bearer ${bearer}` };
      case 'get /skus/:sku_id/subscriptions':
        return {
          auth: bot,
          query: { user_id: w.user.id, before: '9000000000000000000', after: '1', limit: '10' },
        };
      case 'post /applications/:application_id/skus':
        return { auth: admin, body: { type: 2, name: 'Sweep SKU', slug: 'sweep-sku', flags: 4 } };
      case 'get /applications/:application_id/requests':
        return { auth: admin, query: { limit: '10', before: LARGEST_ID } };
      // A fault on a route the sweep never calls: the sweep app's own calls stay unfaulted.
      case 'post /applications/:application_id/faults':
        return {
          auth: admin,
          body: {
            route: 'GET /sweep/never-called',
            status: 503,
            times: 1,
            delay_ms: 0,
            body: { message: 'swept' },
          },
        };
      // The timeline's page; the expiry of an interaction (of another app here: nothing expires).
      case 'get /applications/:application_id/interactions':
        return { auth: admin, query: { before: '9000000000000000000', limit: '10' } };
      case 'post /applications/:application_id/interactions/:interaction_id/expire':
        return { auth: admin, body: { window: 'token' } };
      case 'post /entitlements':
        return {
          auth: admin,
          body: { sku_id: money.consumable, user_id: w.user.id },
          unknownIds: [
            { at: ['sku_id'], expect: { status: 404, code: 10027 } },
            { at: ['user_id'], expect: { status: 404, code: 10013 } },
          ],
        };
      case 'post /subscriptions':
        return {
          auth: admin,
          body: { sku_id: money.subscriptionSku, user_id: w.user.id },
          unknownIds: [{ at: ['sku_id'], expect: { status: 404, code: 10027 } }],
        };
      case 'patch /subscriptions/:subscription_id':
        return {
          auth: admin,
          body: { renewal_sku_ids: [money.subscriptionSku] },
          idLeaves: [{ at: ['renewal_sku_ids', 0], code: 'NUMBER_TYPE_MAX' }],
          unknownIds: [{ at: ['renewal_sku_ids', 0], expect: { status: 400, code: 50057 } }],
        };
      default:
        return { auth: ADMIN_ROUTES.some(([m, p]) => `${m} ${p}` === key) ? admin : bot };
    }
  }

  /** Another application's lobby (the demo world's) in place of the sweep app's: 404 / 10031. */
  function lobbyForeign(path: string): NonNullable<Template['foreign']> {
    return path.includes(':lobby_id')
      ? [
          {
            what: "another application's lobby",
            param: 'lobby_id',
            value: worldLobbyId,
            expect: UNKNOWN_LOBBY,
          },
        ]
      : [];
  }
  const UNKNOWN_LOBBY = { status: 404, code: 10031 };

  /** The real id a route's `:name` takes (a command of the route's own scope). */
  function pathId(name: string, routePath: string): string {
    switch (name) {
      case 'application_id':
        return w.application.id;
      case 'guild_id':
        return w.guild.id;
      case 'user_id':
        return w.user.id;
      case 'role_id':
        return w.role.id;
      case 'channel_id':
        return routePath.endsWith('/voice-status') ? voiceChannelId : w.channel.id;
      case 'command_id':
        return routePath.includes('/guilds/') ? guildCommandId : globalCommandId;
      // A pending interaction for the callback; an answered one's webhook and follow-up.
      case 'interaction_id':
        return ix.pending.id;
      case 'interaction_token':
        return ix.pending.token;
      case 'webhook_id':
        return ix.app.id;
      case 'webhook_token':
        return ix.answered.token;
      case 'message_id':
        if (routePath.startsWith('/lobbies/')) return lobbyMessageId;
        return routePath.startsWith('/channels/:channel_id/messages/:message_id')
          ? channelMessageId
          : ix.answered.followupId;
      case 'emoji':
        return encodeURIComponent('👍');
      case 'lobby_id':
        return lobbyId;
      case 'sku_id':
        return money.subscriptionSku;
      case 'entitlement_id':
        return money.entitlement;
      case 'subscription_id':
        return money.subscription;
      // The @everyone role's overwrite.
      case 'overwrite_id':
        return w.guild.id;
      case 'rule_id':
        return autoModRuleId;
      // No fault of the sweep app: its deletion answers 404, after the path's checks.
      case 'fault_id':
        return LARGEST_ID;
      // No id: a provider type (a test issuer's, as the Social SDK names it).
      case 'external_auth_type':
        return 'STEAM_SESSION_TICKET';
      default:
        throw new Error(`no id for :${name}`);
    }
  }

  /** One hostile request and what its answer must be. */
  interface Case {
    what: string;
    path: string;
    query?: Record<string, string>;
    body?: unknown;
    /** The body as JSON text, when no JavaScript value serializes to it (numbers beyond doubles). */
    rawBody?: string;
    /** Sends the body as a form's `payload_json` rather than as JSON. */
    payloadForm?: 'urlencoded' | 'multipart';
    form?: Record<string, string>;
    headers?: Record<string, string>;
    /** The 50035 inner code expected at `at`, the OAuth2 error expected, or a status (and error code). */
    expect: FieldError | ErrorUnder | { oauth2: string } | { status: number; code?: number };
  }

  /** Every leaf of a JSON value with its path. */
  function leaves(value: unknown, path: (string | number)[] = []): Array<[(string | number)[], unknown]> {
    if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...path, i]));
    if (typeof value === 'object' && value !== null) {
      return Object.entries(value).flatMap(([k, item]) => leaves(item, [...path, k]));
    }
    return [[path, value]];
  }

  function replaced(value: unknown, path: (string | number)[], leaf: unknown): unknown {
    if (path.length === 0) return leaf;
    const [head, ...rest] = path;
    if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaced(item, rest, leaf) : item));
    const object = value as Record<string, unknown>;
    return { ...object, [head as string]: replaced(object[head as string], rest, leaf) };
  }

  const isIdLeaf = (path: (string | number)[], value: unknown) => {
    const key = path[path.length - 1];
    const parent = path[path.length - 2];
    return (
      typeof value === 'string' &&
      /^\d+$/.test(value) &&
      (key === 'id' || String(key).endsWith('_id') || parent === 'roles' || parent === 'users')
    );
  };
  const isBitSetLeaf = (path: (string | number)[], value: unknown) =>
    typeof value === 'string' && BIT_SET_KEYS.has(String(path[path.length - 1]));

  function casesOf(method: Method, routePath: string, template = templateOf(method, routePath)): Case[] {
    const params = (routePath.match(/:(\w+)/g) ?? []).map((p) => p.slice(1));
    const filled = fill(routePath, (n) => pathId(n, routePath));
    const cases: Case[] = [];
    const isBatch = routePath.endsWith('/commands/permissions') && method === 'put';
    for (const param of params) {
      if (param === 'emoji') {
        // No id: what is no emoji names none (400 / 10014).
        for (const emoji of ['18446744073709551616', 'thumbsup', 'blob%3A123456789012345678']) {
          cases.push({
            what: `:emoji = ${emoji}`,
            path: fill(routePath, (n) => (n === param ? emoji : pathId(n, routePath))),
            query: template.query,
            expect: { status: 400, code: 10014 },
          });
        }
        continue;
      }
      if (param === 'external_auth_type') {
        // No id: a type no provider has, or far too long, is a bad field (400 / 50035).
        for (const type of ['NOPE', 'X'.repeat(2000), 'steam%00']) {
          cases.push({
            what: `:external_auth_type = ${type.slice(0, 24)} (${type.length} characters)`,
            path: fill(routePath, (n) => (n === param ? type : pathId(n, routePath))),
            body: template.body,
            expect: { status: 400, code: 50035 },
          });
        }
        continue;
      }
      if (param.endsWith('_token')) {
        // Tokens are no numbers: what no token can be, refused as the route refuses an unknown one.
        for (const token of BAD_TOKENS) {
          cases.push({
            what: `:${param} = ${token.slice(0, 24)} (${token.length} characters)`,
            path: fill(routePath, (n) => (n === param ? token : pathId(n, routePath))),
            query: template.query,
            body: template.body,
            expect: template.tokenRefusal as { status: number; code: number },
          });
        }
        continue;
      }
      for (const id of TOO_LARGE_IDS) {
        cases.push({
          what: `:${param} = ${id}`,
          path: fill(routePath, (n) => (n === param ? id : pathId(n, routePath))),
          query: template.query,
          body: template.body,
          form: template.form,
          expect: isBatch ? { status: 405 } : { at: [param], code: 'NUMBER_TYPE_MAX' },
        });
      }
    }
    for (const foreign of template.foreign ?? []) {
      cases.push({
        what: `:${foreign.param} = ${foreign.what}`,
        path: fill(routePath, (n) => (n === foreign.param ? foreign.value : pathId(n, routePath))),
        query: template.query,
        body: template.body,
        expect: foreign.expect,
      });
    }
    for (const [name, value] of Object.entries(template.query ?? {})) {
      const base = { path: filled, body: template.body, form: template.form };
      cases.push({
        ...base,
        what: `?${name} with U+0000`,
        query: { ...template.query, [name]: `${value}\u0000` },
        expect: { at: [name], code: 'STRING_TYPE_NUL_CHARACTER' },
      });
      if (/^\d+$/.test(value) && name !== 'limit') {
        for (const id of TOO_LARGE_IDS) {
          cases.push({
            ...base,
            what: `?${name} = ${id}`,
            query: { ...template.query, [name]: id },
            expect: { at: [name], code: 'NUMBER_TYPE_MAX' },
          });
        }
      }
      if (name === 'limit') {
        cases.push({
          ...base,
          what: '?limit of 8000 digits',
          query: { ...template.query, limit: '9'.repeat(8000) },
          expect: { at: ['limit'], code: 'NUMBER_TYPE_COERCE' },
        });
      }
    }
    if (template.query === undefined && method === 'get') {
      cases.push({
        what: 'a query parameter with U+0000 in its name',
        path: filled,
        query: { 'x\u0000': '1' },
        expect: { at: ['x\u0000'], code: 'STRING_TYPE_NUL_CHARACTER' },
      });
    }
    const bodyCases: Case[] = [];
    if (template.body !== undefined) {
      for (const [at, value] of leaves(template.body)) {
        if (typeof value !== 'string') continue;
        const base = { path: filled, query: template.query };
        bodyCases.push({
          ...base,
          what: `${at.join('.')} with U+0000`,
          body: replaced(template.body, at, `${value.slice(0, 1)}\u0000${value.slice(1)}`),
          expect: { at, code: 'STRING_TYPE_NUL_CHARACTER' },
        });
        bodyCases.push({
          ...base,
          what: `${at.join('.')} = ${LONG_TEXT.length} characters`,
          body: replaced(template.body, at, LONG_TEXT),
          expect: { under: at },
        });
        const idCode =
          template.idLeaves?.find((leaf) => leaf.at.join('.') === at.join('.'))?.code ??
          (isIdLeaf(at, value) ? 'NUMBER_TYPE_MAX' : undefined);
        const isNumeric = idCode !== undefined || isBitSetLeaf(at, value);
        const numbers = [...(idCode ? TOO_LARGE_IDS : []), ...(isNumeric ? [KILOBYTES_OF_NINES] : [])];
        for (const number of numbers) {
          bodyCases.push({
            ...base,
            what: `${at.join('.')} = ${number.slice(0, 24)} (${number.length} digits)`,
            body: replaced(template.body, at, number),
            expect: { at, code: idCode ?? 'NUMBER_TYPE_MAX' },
          });
        }
        // Digits as text too long for any field, whatever the field (a nonce, say).
        if (isNumeric || /^\d+$/.test(value)) {
          // The gateway refuses a string longer than any field takes before decoding the body.
          bodyCases.push({
            ...base,
            what: `${at.join('.')} = a megabyte of digits`,
            body: replaced(template.body, at, MEGABYTE_OF_NINES),
            expect: { at, code: 'BASE_TYPE_MAX_LENGTH' },
          });
        }
      }
      for (const leaf of template.numberLeaves ?? []) {
        const marker = 'NUMBER-LEAF';
        const text = JSON.stringify(replaced(template.body, leaf.at, marker));
        for (const [what, digits, expected] of [
          ['2^64 - 1', '18446744073709551615', leaf.huge],
          ['a megabyte of digits', MEGABYTE_OF_NINES, leaf.megabyte],
        ] as const) {
          bodyCases.push({
            path: filled,
            query: template.query,
            what: `${leaf.at.join('.')} = ${what} as a JSON number`,
            rawBody: text.replace(`"${marker}"`, digits),
            expect: expected,
          });
        }
      }
      // A key holding U+0000, at the top level (of the first item of a list body).
      const inItem = Array.isArray(template.body);
      const object = (inItem ? (template.body as unknown[])[0] : template.body) as Record<string, unknown>;
      const withKey = { ...object, 'k\u0000': 'v' };
      bodyCases.push({
        what: 'a key with U+0000',
        path: filled,
        body: inItem ? [withKey] : withKey,
        expect: { at: inItem ? [0, 'k\u0000'] : ['k\u0000'], code: 'STRING_TYPE_NUL_CHARACTER' },
      });
      // The largest id there is, unknown: refused as an unknown thing, before anything is recorded.
      for (const unknown of template.unknownIds ?? []) {
        bodyCases.push({
          what: `${unknown.at.join('.')} = 2^63 - 1 (unknown)`,
          path: filled,
          query: template.query,
          body: replaced(template.body, unknown.at, LARGEST_ID),
          expect: unknown.expect,
        });
      }
    }
    cases.push(...bodyCases);
    if (template.formPayload) {
      // The same hostile bodies as a form's payload_json: the edge must read them alike.
      for (const payloadForm of ['urlencoded', 'multipart'] as const) {
        cases.push(
          ...bodyCases.map((c) => ({ ...c, what: `${c.what} (${payloadForm} payload_json)`, payloadForm })),
        );
      }
    }
    if (template.form !== undefined) {
      for (const [name, value] of Object.entries(template.form)) {
        cases.push({
          what: `form ${name} with U+0000`,
          path: filled,
          form: { ...template.form, [name]: `${value}\u0000` },
          expect: { oauth2: 'invalid_request' },
        });
      }
      for (const id of [...TOO_LARGE_IDS, MEGABYTE_OF_NINES]) {
        cases.push({
          what: `form client_id = ${id.slice(0, 24)} (${id.length} digits)`,
          path: filled,
          form: { ...template.form, client_id: id },
          expect: { oauth2: 'invalid_client' },
        });
      }
      // The same ids through HTTP Basic, the form keeping only what is not a credential.
      const rest = Object.fromEntries(
        Object.entries(template.form).filter(([name]) => name !== 'client_id' && name !== 'client_secret'),
      );
      for (const id of TOO_LARGE_IDS) {
        const credentials = Buffer.from(`${id}:${template.form.client_secret ?? ''}`).toString('base64');
        cases.push({
          what: `Basic client_id = ${id}`,
          path: filled,
          form: rest,
          headers: { Authorization: `Basic ${credentials}` },
          expect: { oauth2: 'invalid_client' },
        });
      }
    }
    return cases;
  }

  /**
   * The other bodies `POST /interactions` takes: a click on the sweep app's select menu
   * (type 3) and a submit of the modal it opened (type 5), each under a nonce never used.
   */
  function followOnTemplatesOf(method: Method, routePath: string): Template[] {
    if (`${method} ${routePath}` !== 'post /interactions') return [];
    const base = {
      application_id: ix.app.id,
      guild_id: w.guild.id,
      channel_id: w.channel.id,
      session_id: '0123456789abcdef0123456789abcdef',
    };
    const typeLeaf = {
      at: ['type'],
      huge: { at: ['type'], code: 'BASE_TYPE_CHOICES' },
      megabyte: coerce(['type']),
    };
    return [
      {
        auth: () => ix.user.token,
        query: { wait: 'true' },
        body: { ...base, ...followOns.click, nonce: followOns.nonces[0] },
        formPayload: true,
        unknownIds: [
          { at: ['application_id'], expect: { status: 404, code: 10008 } },
          { at: ['guild_id'], expect: { status: 404, code: 10008 } },
          { at: ['channel_id'], expect: { status: 404, code: 10008 } },
          { at: ['message_id'], expect: { status: 404, code: 10008 } },
        ],
        numberLeaves: [
          typeLeaf,
          {
            at: ['data', 'component_type'],
            huge: { at: ['data', 'component_type'], code: 'INTERACTION_COMPONENT_TYPE_MISMATCH' },
            megabyte: coerce(['data', 'component_type']),
          },
        ],
      },
      {
        auth: () => ix.user.token,
        query: { wait: 'true' },
        body: { ...base, ...followOns.submit, nonce: followOns.nonces[1] },
        formPayload: true,
        unknownIds: ['application_id', 'guild_id', 'channel_id'].map((key) => ({
          at: [key],
          expect: { status: 404, code: 10062 },
        })),
        idLeaves: [{ at: ['data', 'id'], code: 'NUMBER_TYPE_MAX' }],
        numberLeaves: [typeLeaf],
      },
    ];
  }

  /** Sends one request of a route: the case's path, query and body with the template's credential. */
  function sendCase(
    method: Method,
    base: string,
    testCase: Omit<Case, 'what' | 'expect'>,
    template: Template,
  ): Promise<Answer> {
    const query = testCase.query ? `?${new URLSearchParams(testCase.query).toString()}` : '';
    const url = stack.apiUrl + base + testCase.path + query;
    const headers: Record<string, string> = { ...testCase.headers };
    const auth = template.auth();
    if (auth !== '' && headers.Authorization === undefined) headers.Authorization = auth;
    let body: string | undefined;
    const json =
      testCase.rawBody ?? (testCase.body === undefined ? undefined : JSON.stringify(testCase.body));
    if (testCase.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(testCase.form).toString();
    } else if (testCase.payloadForm === 'urlencoded') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams({ payload_json: json ?? '' }).toString();
    } else if (testCase.payloadForm === 'multipart') {
      const boundary = 'sweep-boundary-7d1f';
      headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
      body =
        `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n` +
        `Content-Type: application/json\r\n\r\n${json ?? ''}\r\n--${boundary}--\r\n`;
    } else if (testCase.rawBody !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = testCase.rawBody;
    } else if (testCase.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(testCase.body);
    }
    return send(method, url, { headers, body });
  }

  async function run(method: Method, base: string, testCase: Case, template: Template): Promise<void> {
    const answer = await sendCase(method, base, testCase, template);
    const what = `${method} ${base}${testCase.path.slice(0, 120)}: ${testCase.what}`;
    expectWellFormed(answer, what);
    const context = `${what} → ${answer.status} ${answer.text.slice(0, 400)}`;
    const parsed = (answer.text === '' ? {} : JSON.parse(answer.text)) as Record<string, any>;
    const expected = testCase.expect;
    if ('status' in expected) {
      expect({ context, status: answer.status, code: parsed.code }).toEqual({
        context,
        status: expected.status,
        code: expected.code ?? parsed.code,
      });
    } else if ('under' in expected) {
      const codes: string[] = [];
      let node: any = parsed.errors;
      for (const segment of ['', ...expected.under]) {
        if (segment !== '') node = node?.[String(segment)];
        codes.push(...((node?._errors ?? []) as { code: string }[]).map((e) => e.code));
      }
      expect({ context, status: answer.status, code: parsed.code, refused: codes.length > 0 }).toEqual({
        context,
        status: 400,
        code: 50035,
        refused: true,
      });
    } else if ('oauth2' in expected) {
      expect({ context, status: answer.status >= 400 && answer.status < 500, error: parsed.error }).toEqual({
        context,
        status: true,
        error: expected.oauth2,
      });
    } else {
      let node: any = parsed.errors;
      for (const segment of expected.at) node = node?.[String(segment)];
      const codes = ((node?._errors ?? []) as { code: string }[]).map((e) => e.code);
      expect({ context, status: answer.status, code: parsed.code, codes }).toEqual({
        context,
        status: 400,
        code: 50035,
        codes: expect.arrayContaining([expected.code]),
      });
    }
  }

  /**
   * A message of the sweep app with a select menu, and two modals it opened: each body is
   * shown answerable once (on the twin modal), so that every refusal below is the hostile
   * field's.
   */
  async function openFollowOns(): Promise<typeof followOns> {
    const menu = {
      content: 'Choose',
      components: [
        {
          type: 1,
          components: [{ type: 3, custom_id: 'sweep-select', options: [{ label: 'Floor', value: 'floor' }] }],
        },
      ],
    };
    const modal = {
      custom_id: 'sweep-modal',
      title: 'Sweep',
      components: [{ type: 18, label: 'Where', component: { type: 4, custom_id: 'sweep-text', style: 1 } }],
    };
    ix.endpoint.answer = (interaction) =>
      interaction.type === 2
        ? { status: 200, body: { type: 4, data: menu } }
        : { status: 200, body: { type: 9, data: modal } };
    const invoked = await ix.user.invoke({ ...ix.invocation, nonce: ix.user.nonce() });
    expect(invoked.body).toMatchObject({ outcome: 'success' });
    const messageId = invoked.body.messages[0].id as string;
    const place = { application_id: ix.app.id, guild_id: w.guild.id, channel_id: w.channel.id };
    const click = {
      type: 3,
      message_id: messageId,
      data: { component_type: 3, custom_id: 'sweep-select', values: ['floor'] },
    };
    // Two clicks open two modals: one to prove the submit answerable, one for the sweep.
    const opened: string[] = [];
    for (let i = 0; i < 2; i++) {
      const clicked = await ix.user.invoke({ ...place, ...click });
      expect(clicked.body).toMatchObject({ outcome: 'success', response: { type: 9 } });
      opened.push(clicked.body.interaction.id as string);
    }
    const submitOf = (id: string) => ({
      type: 5,
      data: {
        id,
        custom_id: 'sweep-modal',
        components: [{ type: 18, component: { type: 4, custom_id: 'sweep-text', value: 'hallway' } }],
      },
    });
    ix.endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Thanks' } } });
    const twin = await ix.user.invoke({ ...place, ...submitOf(opened[0] as string) });
    expect(twin.body).toMatchObject({ outcome: 'success', response: { type: 4 } });
    return { click, submit: submitOf(opened[1] as string), nonces: [ix.user.nonce(), ix.user.nonce()] };
  }

  beforeAll(async () => {
    w = await createDemoWorld(stack, {
      username: 'sweep-owner',
      guildName: 'Sweep Guild',
      applicationName: 'Sweep App',
    });
    expect(
      (await stack.admin('PATCH', `/admin/applications/${w.application.id}`, { redirect_uris: [REDIRECT] }))
        .status,
    ).toBe(200);
    const consent = await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: w.application.id,
      user_id: w.user.id,
      scope:
        'identify guilds connections applications.commands.permissions.update applications.entitlements sdk.social_layer',
      redirect_uri: REDIRECT,
    });
    const token = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: consent.body.code,
        redirect_uri: REDIRECT,
        client_id: w.application.id,
        client_secret: w.application.clientSecret,
      }),
    });
    bearer = ((await token.json()) as { access_token: string }).access_token;
    session = (await stack.admin('POST', `/admin/users/${w.user.id}/sessions`)).body.token;
    const create = async (path: string) => {
      const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
        method: 'POST',
        headers: { Authorization: bot(), 'Content-Type': 'application/json' },
        body: JSON.stringify(command()),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    const adminPost = async (path: string, body: Record<string, unknown>) => {
      const answer = await stack.admin('POST', path, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 201 });
      return answer.body.id as string;
    };
    const consumable = await adminPost(`/admin/applications/${w.application.id}/skus`, {
      type: 3,
      name: 'Coins',
    });
    const subscriptionSku = await adminPost(`/admin/applications/${w.application.id}/skus`, {
      type: 5,
      name: 'Sweep Premium',
    });
    money = {
      consumable,
      subscriptionSku,
      entitlement: await adminPost('/admin/entitlements', { sku_id: consumable, user_id: w.user.id }),
      subscription: await adminPost('/admin/subscriptions', { sku_id: subscriptionSku, user_id: w.user.id }),
    };
    const lobby = await api(stack, 'POST', '/lobbies', {
      token: bot(),
      body: { members: [{ id: w.user.id, flags: 1 }], idle_timeout_seconds: 604800 },
    });
    expect(lobby.status).toBe(201);
    lobbyId = lobby.body.id;
    const posted = await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: `Bearer ${bearer}`,
      body: { content: 'Before the sweep' },
    });
    expect(posted.status).toBe(201);
    lobbyMessageId = posted.body.id;
    const sent = await api(stack, 'POST', `/channels/${w.channel.id}/messages`, {
      token: bot(),
      body: { content: 'Before the sweep' },
    });
    expect(sent.status).toBe(200);
    channelMessageId = sent.body.id;
    const rule = await api(stack, 'POST', `/guilds/${w.guild.id}/auto-moderation/rules`, {
      token: session,
      body: autoModRule(),
    });
    expect(rule.status).toBe(200);
    autoModRuleId = rule.body.id;
    // VIEW_CHANNEL, MANAGE_CHANNELS and SET_VOICE_CHANNEL_STATUS for the bot there.
    voiceChannelId = await adminPost(`/admin/guilds/${w.guild.id}/channels`, {
      name: 'sweep-voice',
      type: 2,
      permission_overwrites: [
        { id: w.application.id, type: 1, allow: String((1n << 10n) | (1n << 4n) | (1n << 48n)), deny: '0' },
      ],
    });
    const elsewhere = await stack.admin('POST', '/admin/guilds', {
      name: 'Not the bot',
      owner_id: w.user.id,
    });
    foreignVoiceChannelId = await adminPost(`/admin/guilds/${elsewhere.body.id}/channels`, {
      name: 'elsewhere',
      type: 2,
    });
    globalCommandId = await create(`/applications/${w.application.id}/commands`);
    guildCommandId = await create(`/applications/${w.application.id}/guilds/${w.guild.id}/commands`);

    ix = await openInteractions(w, 'Sweep Interactions App');
    // Each interaction route's template succeeds as it is (the invocation's did in
    // openInteractions): shown on a twin where it would change what the sweep uses (the
    // other pending interaction, the spare follow-up), so that every refusal below is the
    // hostile field's.
    const messageRoute = '/webhooks/:webhook_id/:webhook_token/messages/:message_id';
    const twins: Array<[Method, string, Record<string, string>, number]> = [
      [
        'post',
        '/interactions/:interaction_id/:interaction_token/callback',
        { interaction_id: ix.pendingTwin.id, interaction_token: ix.pendingTwin.token },
        200,
      ],
      ['post', '/webhooks/:webhook_id/:webhook_token', {}, 200],
      ['get', messageRoute, {}, 200],
      ['patch', messageRoute, {}, 200],
      ['delete', messageRoute, { message_id: ix.answered.spareFollowupId }, 204],
    ];
    for (const [method, path, ids, status] of twins) {
      const template = templateOf(method, path);
      const answer = await sendCase(
        method,
        '/api/v10',
        { path: fill(path, (n) => ids[n] ?? pathId(n, path)), query: template.query, body: template.body },
        template,
      );
      const route = `${method} ${path} → ${answer.text.slice(0, 300)}`;
      expect({ route, status: answer.status }).toEqual({ route, status });
    }
    followOns = await openFollowOns();
    // An invocation the sweep lets through by mistake is answered at once (and counted).
    ix.endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Let through' } } });
    receivedBefore = ix.endpoint.received.length;
    before = await snapshot();
  });

  describe.each([
    ['public', '/api/v10', PUBLIC_ROUTES],
    ['v9', '/api/v9', V9_ROUTES],
    ['admin', '/admin', ADMIN_ROUTES],
  ] as const)('%s routes', (_kind, base, routes) => {
    it.each(routes)('%s %s refuses each hostile field with the answer it deserves', async (method, path) => {
      const template = templateOf(method, path, _kind);
      // A write route sweeps its body's fields: a new one needs a template above.
      const bodiless =
        BODILESS_WRITES.includes(`${method} ${path}`) ||
        (_kind !== 'admin' && PUBLIC_BODILESS_WRITES.includes(`${method} ${path}`));
      const hasBody = template.body !== undefined || template.form !== undefined;
      if (!BODIES_SWEPT_ELSEWHERE.includes(`${method} ${path}`))
        expect({ route: `${method} ${path}`, hasBody }).toEqual({
          route: `${method} ${path}`,
          hasBody: method !== 'get' && method !== 'delete' && !bodiless,
        });
      for (const testCase of casesOf(method, path, template)) await run(method, base, testCase, template);
      // POST /interactions also takes a component used and a modal submitted (issue 11).
      for (const followOn of followOnTemplatesOf(method, path)) {
        for (const testCase of casesOf(method, path, followOn)) await run(method, base, testCase, followOn);
      }
    });
  });

  it('changed nothing in the database', async () => {
    expect(await snapshot()).toEqual(before);
    // And no hostile invocation reached the application.
    expect(ix.endpoint.received.length).toBe(receivedBefore);
  });
});
