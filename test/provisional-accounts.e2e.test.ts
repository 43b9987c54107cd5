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
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { api } from './support/chat-user';

// The Social SDK's provisional accounts end to end, as a game backend uses them: players
// without a chat account get a 7-day Bearer token from the Bot Token Endpoint or from the
// External Credentials Exchange (a Steam ticket of the admin API's test issuer), join a
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
      id_token: expect.any(String),
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

describe('the External Credentials Exchange with a test issuer', () => {
  const app = () => world.application;
  /** A Steam ticket of the test issuer of `applicationId`. */
  const ticket = async (applicationId: string, externalUserId: string): Promise<string> => {
    const minted = await adminExpect(
      stack.admin,
      200,
      'POST',
      `/admin/applications/${applicationId}/external-tokens`,
      {
        external_auth_type: 'STEAM_SESSION_TICKET',
        external_user_id: externalUserId,
      },
    );
    return minted.external_auth_token as string;
  };
  const exchange = (body: unknown) => api(stack, 'POST', '/partner-sdk/token', { body });
  const steam = (token: string) => ({
    client_id: app().id,
    client_secret: app().clientSecret,
    external_auth_type: 'STEAM_SESSION_TICKET',
    external_auth_token: token,
  });

  beforeAll(async () => {
    for (const id of [app().id, other.id]) {
      const put = await adminExpect(
        stack.admin,
        200,
        'PUT',
        `/admin/applications/${id}/identity-providers/STEAM_SESSION_TICKET`,
        {},
      );
      expect(put).toEqual({ external_auth_type: 'STEAM_SESSION_TICKET', issuer: null, test_issuer: true });
    }
  });

  it('exchanges a Steam ticket for a provisional account that chats in a lobby', async () => {
    const first = await exchange(steam(await ticket(app().id, 'steam-76561198')));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'identify sdk.social_layer',
    });
    const bearer = `Bearer ${first.body.access_token}`;
    const me = await api(stack, 'GET', '/users/@me', { token: bearer });
    expect(me.body).toMatchObject({ flags: 1 << 23, global_name: null });
    const again = await exchange(steam(await ticket(app().id, 'steam-76561198')));
    const meAgain = await api(stack, 'GET', '/users/@me', { token: `Bearer ${again.body.access_token}` });
    expect(meAgain.body.id).toBe(me.body.id);
    // A Steam identity is not the bot endpoint's identity of the same id.
    const viaBot = await botEndpoint({ external_user_id: 'steam-76561198' });
    const botMe = await api(stack, 'GET', '/users/@me', { token: `Bearer ${viaBot.body.access_token}` });
    expect(botMe.body.id).not.toBe(me.body.id);

    const lobby = await api(stack, 'PUT', '/lobbies', { token: bearer, body: { secret: 'steam-lobby' } });
    expect(lobby.status).toBe(200);
    await api(stack, 'PUT', '/lobbies', { token: fullAccount.bearer, body: { secret: 'steam-lobby' } });
    const sent = await api(stack, 'POST', `/lobbies/${lobby.body.id}/messages`, {
      token: bearer,
      body: { content: 'gg' },
    });
    expect(sent.status).toBe(201);
    const read = await api(stack, 'GET', `/lobbies/${lobby.body.id}/messages`, { token: fullAccount.bearer });
    expect(read.body[0]).toMatchObject({ content: 'gg', author: { id: me.body.id } });
  });

  it('answers hostile credentials with their documented codes, never a 5xx', async () => {
    const good = await ticket(app().id, 'steam-hostile');
    const foreign = await ticket(other.id, 'steam-hostile');
    const cases: [unknown, number, number][] = [
      [{ ...steam(good), external_auth_token: 'x'.repeat(10241) }, 400, 50035],
      [{ ...steam(good), external_auth_token: 'a\u0000b' }, 400, 50035],
      [{ ...steam(good), external_auth_type: 'NOT_A_TYPE' }, 400, 50035],
      [{ ...steam(good), external_auth_type: 'APPLE_ID_TOKEN' }, 400, 50035],
      [{ ...steam(good), client_id: '18446744073709551616' }, 400, 50035],
      [{ ...steam(good), client_secret: 'wrong' }, 400, 530007],
      [steam(foreign), 400, 530020],
      [steam('not.a.jwt'), 400, 530020],
      [{}, 400, 50035],
    ];
    for (const [body, status, code] of cases) {
      const answer = await exchange(body);
      expect([body, answer.status, answer.body.code]).toEqual([body, status, code]);
    }
    const oversizeId = await stack.admin('POST', `/admin/applications/${app().id}/external-tokens`, {
      external_auth_type: 'STEAM_SESSION_TICKET',
      external_user_id: 'x'.repeat(1025),
    });
    expect(oversizeId.status).toBe(400);
    const unknownType = await stack.admin(
      'PUT',
      `/admin/applications/${app().id}/identity-providers/NOT_A_TYPE`,
      {},
    );
    expect(unknownType.status).toBe(400);
    // The good ticket still works after all that.
    expect((await exchange(steam(good))).status).toBe(200);
  });
});

describe('renaming a provisional account', () => {
  it('renames it with its own token (PATCH /users/@me/account), and refuses everyone else', async () => {
    const player = await botEndpoint({ external_user_id: 'renamer', preferred_global_name: 'Before' });
    const bearer = `Bearer ${player.body.access_token}`;
    const renamed = await api(stack, 'PATCH', '/users/@me/account', {
      token: bearer,
      body: { global_name: 'After' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ global_name: 'After', flags: 1 << 23 });
    expect((await api(stack, 'GET', '/users/@me', { token: bearer })).body.global_name).toBe('After');

    const full = await api(stack, 'PATCH', '/users/@me/account', {
      token: fullAccount.bearer,
      body: { global_name: 'Nope' },
    });
    expect([full.status, full.body.code]).toEqual([403, 50001]);
    const asBot = await api(stack, 'PATCH', '/users/@me/account', {
      token: bot(),
      body: { global_name: 'Nope' },
    });
    expect([asBot.status, asBot.body.code]).toEqual([403, 20001]);
    for (const body of [{ global_name: 'x'.repeat(33) }, { global_name: 'a\u0000' }, {}]) {
      const bad = await api(stack, 'PATCH', '/users/@me/account', { token: bearer, body });
      expect([bad.status, bad.body.code]).toEqual([400, 50035]);
    }
  });
});

describe('ID tokens', () => {
  /** The claims of `token` as a game backend's JOSE library verifies them, given only the issuer. */
  async function verifyIdToken(token: string, audience: string, nonce?: string) {
    const discovery = await fetch(`${stack.apiUrl}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    const configuration = (await discovery.json()) as Record<string, unknown>;
    expect(configuration).toMatchObject({
      issuer: stack.apiUrl,
      jwks_uri: `${stack.apiUrl}/api/v10/oauth2/keys`,
      id_token_signing_alg_values_supported: ['RS256'],
    });
    expect(configuration).not.toHaveProperty('userinfo_endpoint');
    const keys = createRemoteJWKSet(new URL(configuration.jwks_uri as string));
    const { payload, protectedHeader } = await jwtVerify(token, keys, {
      issuer: configuration.issuer as string,
      audience,
      algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).toBe('RS256');
    if (nonce !== undefined) expect(payload.nonce).toBe(nonce);
    return payload;
  }

  it('comes with a provisional token, for the provisional account, verifiable against the JWKS', async () => {
    const player = await botEndpoint({ external_user_id: 'oidc-player' });
    const me = await api(stack, 'GET', '/users/@me', { token: `Bearer ${player.body.access_token}` });
    const claims = await verifyIdToken(player.body.id_token as string, world.application.id);
    expect(claims).toMatchObject({ sub: me.body.id, aud: [world.application.id] });
    expect((claims.exp as number) - (claims.iat as number)).toBe(604800);
    // Another application's audience does not verify.
    await expect(verifyIdToken(player.body.id_token as string, other.id)).rejects.toThrow();
    const keys = await fetch(`${stack.apiUrl}/api/v10/oauth2/keys`);
    expect(keys.headers.get('content-type')).toBe('application/json');
    const jwks = (await keys.json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256', e: 'AQAB' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('comes with a code exchange for openid, echoing the nonce, and not without openid', async () => {
    const app = world.application;
    const token = async (scope: string, nonce?: string) => {
      const { code } = await adminExpect(stack.admin, 200, 'POST', '/admin/oauth2/authorize', {
        client_id: app.id,
        user_id: fullAccount.id,
        scope,
        redirect_uri: REDIRECT,
        ...(nonce === undefined ? {} : { nonce }),
      });
      const response = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${app.id}:${app.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
        }).toString(),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    const withOpenId = await token('openid identify', 'nonce-42');
    expect((withOpenId.scope as string).split(' ').sort()).toEqual(['identify', 'openid']);
    const claims = await verifyIdToken(withOpenId.id_token as string, app.id, 'nonce-42');
    expect(claims.sub).toBe(fullAccount.id);
    expect(await token('identify')).not.toHaveProperty('id_token');
  });
});
