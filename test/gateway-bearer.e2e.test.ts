import { adminExpect } from '../infra/src/admin-client';
import { userAccessToken } from '../infra/src/user-token';
import { createDemoWorld, createUser, startTestStack, type DemoWorld, type TestStack } from './support';
import { api } from './support/chat-user';
import { GatewayTestClient } from './helpers/gateway-client';

// The Social SDK client's gateway connection on the whole stack: a provisional player (the
// Bot Token Endpoint's Bearer token) and a full account (an OAuth2 token with
// sdk.social_layer) identify with `Bearer <token>`; the player hears a message the full
// account posts in their lobby; a token without a Social SDK scope, or revoked, is 4004.

const REDIRECT = 'https://game.example/callback';

let stack: TestStack;
let world: DemoWorld;
let gatewayUrl: string;
const clients: GatewayTestClient[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    // Each token identifies once here; the limits on Identify have their own tests.
    env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' },
  });
  world = await createDemoWorld(stack);
  await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${world.application.id}`, {
    redirect_uris: [REDIRECT],
  });
  gatewayUrl = ((await (await fetch(`${stack.apiUrl}/api/v10/gateway`)).json()) as { url: string }).url;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close(1000);
});

afterAll(async () => {
  await stack?.stop();
});

/** A full account's access token for the demo application with `scope`. */
async function fullAccountToken(username: string, scope: string): Promise<{ id: string; token: string }> {
  const user = await createUser(stack, { username });
  const app = world.application;
  const token = await userAccessToken(stack.apiUrl, stack.admin, {
    application: { id: app.id, clientSecret: app.clientSecret },
    userId: user.id,
    scope,
    redirectUri: REDIRECT,
  });
  return { id: user.id, token };
}

/** A gateway connection that sent an Identify as the Social SDK client does (a Bearer token, no intents). */
async function identifyWithBearer(token: string): Promise<GatewayTestClient> {
  const client = await GatewayTestClient.connect(gatewayUrl);
  clients.push(client);
  await client.next((p) => p.op === 10);
  client.send({ op: 2, d: { token: `Bearer ${token}`, properties: { os: 'linux', browser: 'game' } } });
  return client;
}

describe('a Social SDK client identifying with its Bearer token', () => {
  it("gives a provisional player READY and the lobby's messages a full account posts", async () => {
    const issued = await api(stack, 'POST', '/partner-sdk/token/bot', {
      token: `Bot ${world.application.botToken}`,
      body: { external_user_id: 'gateway-player', preferred_global_name: 'Gale' },
    });
    expect(issued.status).toBe(200);
    const playerBearer = `Bearer ${issued.body.access_token}`;
    const full = await fullAccountToken('gateway-friend', 'identify sdk.social_layer');
    const fullBearer = `Bearer ${full.token}`;

    const player = await identifyWithBearer(issued.body.access_token as string);
    const ready = await player.dispatch('READY');
    const me = await api(stack, 'GET', '/users/@me', { token: playerBearer });
    // The player as /users/@me shows them to their token; no guilds without the guilds scope.
    expect(ready.d).toMatchObject({ v: 10, user: me.body, guilds: [], session_type: 'normal' });
    expect(ready.d.user).toMatchObject({ global_name: 'Gale', flags: 1 << 23 });
    expect(ready.d).not.toHaveProperty('application');
    // The full account's Social SDK client connects the same way.
    const friend = await identifyWithBearer(full.token);
    expect((await friend.dispatch('READY')).d.user).toMatchObject({ id: full.id });

    const joined = await api(stack, 'PUT', '/lobbies', { token: playerBearer, body: { secret: 'gw-lobby' } });
    expect(joined.status).toBe(200);
    const lobbyId = joined.body.id as string;
    expect(
      (await api(stack, 'PUT', '/lobbies', { token: fullBearer, body: { secret: 'gw-lobby' } })).body.id,
    ).toBe(lobbyId);
    const sent = await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: fullBearer,
      body: { content: 'welcome aboard' },
    });
    expect(sent.status).toBe(201);

    const heard = await player.next((p) => p.t === 'LOBBY_MESSAGE_CREATE' && p.d.id === sent.body.id, 20_000);
    expect(heard.d).toMatchObject({
      id: sent.body.id,
      lobby_id: lobbyId,
      content: 'welcome aboard',
      author: expect.objectContaining({ id: full.id }),
    });
    // The full account's session hears it too, as a member of the lobby.
    await friend.next((p) => p.t === 'LOBBY_MESSAGE_CREATE' && p.d.id === sent.body.id, 20_000);
  });

  it('closes 4004 for a token without a Social SDK scope, a revoked one, and an unknown one', async () => {
    const plain = await fullAccountToken('gateway-plain', 'identify');
    expect((await (await identifyWithBearer(plain.token)).closed).code).toBe(4004);

    const revoked = await fullAccountToken('gateway-revoked', 'identify sdk.social_layer');
    const app = world.application;
    const revocation = await fetch(`${stack.apiUrl}/api/v10/oauth2/token/revoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: revoked.token,
        client_id: app.id,
        client_secret: app.clientSecret,
      }).toString(),
    });
    expect(revocation.status).toBe(200);
    expect((await (await identifyWithBearer(revoked.token)).closed).code).toBe(4004);

    expect((await (await identifyWithBearer('not-a-token')).closed).code).toBe(4004);
  });
});
