import { adminExpect } from '../infra/src/admin-client';
import { userAccessToken } from '../infra/src/user-token';
import {
  createApplication,
  createDemoWorld,
  createUser,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api } from './support/chat-user';

// The Social SDK's provisional accounts end to end, as a game backend uses them: players
// without a chat account get a 7-day Bearer token from the Bot Token Endpoint, join a
// lobby and chat with a full account; hostile input answers Discord's codes, never a 5xx.

const REDIRECT = 'https://game.example/callback';

let stack: TestStack;
let world: DemoWorld;
let other: { id: string; bot_token: string; client_secret: string };
let fullAccount = { id: '', bearer: '' };

const bot = () => `Bot ${world.application.botToken}`;

/** A player's token from the Bot Token Endpoint of the demo application. */
async function botEndpoint(body: unknown, token = bot()) {
  return api(stack, 'POST', '/partner-sdk/token/bot', { token, body });
}

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  const app = world.application;
  await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${app.id}`, {
    redirect_uris: [REDIRECT],
  });
  other = await createApplication(stack, { name: 'Other game' });
  const carol = await createUser(stack, { username: 'carol' });
  const application = { id: app.id, clientSecret: app.clientSecret };
  const token = await userAccessToken(stack.apiUrl, stack.admin, {
    application,
    userId: carol.id,
    scope: 'identify sdk.social_layer',
    redirectUri: REDIRECT,
  });
  fullAccount = { id: carol.id, bearer: `Bearer ${token}` };
});

afterAll(async () => {
  await stack?.stop();
});

describe('the Bot Token Endpoint', () => {
  it('creates a provisional account once per external user id, with a 7-day token each time', async () => {
    const first = await botEndpoint({ external_user_id: 'player-1', preferred_global_name: 'Ann' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'identify sdk.social_layer',
    });
    const me = await api(stack, 'GET', '/users/@me', { token: `Bearer ${first.body.access_token}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ global_name: 'Ann', flags: 1 << 23, public_flags: 1 << 23, bot: false });
    expect(me.body.username).toMatch(/^provisional_/);
    expect(me.body).not.toHaveProperty('email');

    const again = await botEndpoint({ external_user_id: 'player-1', preferred_global_name: 'Renamed' });
    expect(again.status).toBe(200);
    expect(again.body.access_token).not.toBe(first.body.access_token);
    const sameMe = await api(stack, 'GET', '/users/@me', { token: `Bearer ${again.body.access_token}` });
    expect(sameMe.body).toMatchObject({ id: me.body.id, global_name: 'Ann' });
    // The first token still works: each call adds a token, none is revoked.
    expect(
      (await api(stack, 'GET', '/users/@me', { token: `Bearer ${first.body.access_token}` })).status,
    ).toBe(200);

    // The same external id in another application is another player.
    const elsewhere = await botEndpoint({ external_user_id: 'player-1' }, `Bot ${other.bot_token}`);
    const otherMe = await api(stack, 'GET', '/users/@me', { token: `Bearer ${elsewhere.body.access_token}` });
    expect(otherMe.body.id).not.toBe(me.body.id);
    expect(otherMe.body.global_name).toBeNull();
  });

  it('lets a provisional player join a lobby and chat with a full account', async () => {
    const player = await botEndpoint({ external_user_id: 'player-chat', preferred_global_name: 'Zed' });
    const bearer = `Bearer ${player.body.access_token}`;
    const joinedA = await api(stack, 'PUT', '/lobbies', { token: bearer, body: { secret: 'match-7' } });
    expect(joinedA.status).toBe(200);
    const joinedB = await api(stack, 'PUT', '/lobbies', {
      token: fullAccount.bearer,
      body: { secret: 'match-7' },
    });
    expect(joinedB.body.id).toBe(joinedA.body.id);
    const lobbyId = joinedA.body.id as string;

    const hello = await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: bearer,
      body: { content: 'hi' },
    });
    expect(hello.status).toBe(201);
    expect(hello.body.author).toMatchObject({ global_name: 'Zed', public_flags: 1 << 23 });
    const reply = await api(stack, 'POST', `/lobbies/${lobbyId}/messages`, {
      token: fullAccount.bearer,
      body: { content: 'hello' },
    });
    expect(reply.status).toBe(201);
    const history = await api(stack, 'GET', `/lobbies/${lobbyId}/messages`, { token: bearer });
    expect(history.status).toBe(200);
    expect(history.body.map((m: { content: string }) => m.content)).toEqual(['hello', 'hi']);
    const members = await api(stack, 'GET', `/lobbies/${lobbyId}`, { token: bot() });
    expect(members.body.members.map((m: { id: string }) => m.id).sort()).toEqual(
      [hello.body.author.id, fullAccount.id].sort(),
    );
  });

  it('answers bad input with 50035 and other credentials with 401 / 403, never a 5xx', async () => {
    const cases: [unknown, string][] = [
      [{}, 'external_user_id'],
      [{ external_user_id: '' }, 'external_user_id'],
      [{ external_user_id: 'x'.repeat(1025) }, 'external_user_id'],
      [{ external_user_id: 'a\u0000b' }, 'external_user_id'],
      [{ external_user_id: 42 }, 'external_user_id'],
      [{ external_user_id: 'ok', preferred_global_name: 'n'.repeat(33) }, 'preferred_global_name'],
    ];
    for (const [body, field] of cases) {
      const answer = await botEndpoint(body);
      expect([answer.status, answer.body.code]).toEqual([400, 50035]);
      expect(answer.body.errors).toHaveProperty(field);
    }
    expect((await botEndpoint({ external_user_id: 'x'.repeat(1024) })).status).toBe(200);
    expect((await botEndpoint([1])).status).toBe(400);
    expect((await botEndpoint({ external_user_id: 'p' }, 'Bot not-a-token')).status).toBe(401);
    expect((await botEndpoint({ external_user_id: 'p' }, fullAccount.bearer)).body.code).toBe(20002);
    expect((await botEndpoint({ external_user_id: 'p' }, '')).status).toBe(401);
  });
});
