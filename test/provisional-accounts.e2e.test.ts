import { createHash } from 'node:crypto';
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
import { WebhookReceiver } from './helpers/webhook-receiver';
import { GatewayTestClient } from './helpers/gateway-client';
import { OidcIssuer, type IssuerMisbehaviour } from './helpers/oidc-issuer';

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

/** A full account of the demo application: a code for `identify sdk.social_layer`. */
async function newFullAccount(username: string): Promise<{ id: string; code: () => Promise<string> }> {
  const user = await createUser(stack, { username });
  return {
    id: user.id,
    code: async () =>
      (
        await adminExpect(stack.admin, 200, 'POST', '/admin/oauth2/authorize', {
          client_id: world.application.id,
          user_id: user.id,
          scope: 'identify sdk.social_layer',
          redirect_uri: REDIRECT,
        })
      ).code as string,
  };
}

/** The game backend's merge: the code exchange (HTTP Basic) with the provisional identity's credential. */
async function mergeExchange(code: string, externalAuthType: string, externalAuthToken: string) {
  const app = world.application;
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
      external_auth_type: externalAuthType,
      external_auth_token: externalAuthToken,
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** The gateway's URL, as a client library asks for it. */
async function gatewayUrl(): Promise<string> {
  return ((await (await fetch(`${stack.apiUrl}/api/v10/gateway`)).json()) as { url: string }).url;
}

/** Polls `read` until `done` holds, failing after `ms`. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('merging a provisional account into a full account', () => {
  it('moves its lobby memberships to the full account and retires its tokens', async () => {
    const player = await botEndpoint({ external_user_id: 'merge-player', preferred_global_name: 'Pat' });
    const bearer = `Bearer ${player.body.access_token}`;
    const provisionalId = (await api(stack, 'GET', '/users/@me', { token: bearer })).body.id as string;
    const lobby = await api(stack, 'PUT', '/lobbies', { token: bearer, body: { secret: 'merge-lobby' } });
    expect(lobby.status).toBe(200);
    const person = await newFullAccount('merger');

    const merged = await mergeExchange(
      await person.code(),
      'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      player.body.access_token as string,
    );
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({
      token_type: 'Bearer',
      scope: expect.stringContaining('sdk.social_layer'),
    });
    const fullBearer = `Bearer ${merged.body.access_token}`;
    expect((await api(stack, 'GET', '/users/@me', { token: fullBearer })).body.id).toBe(person.id);
    // The provisional token is dead at once; the identity is the full account's (530010).
    expect((await api(stack, 'GET', '/users/@me', { token: bearer })).status).toBe(401);
    const again = await botEndpoint({ external_user_id: 'merge-player' });
    expect([again.status, again.body.code]).toEqual([400, 530010]);
    expect(again.body).toEqual({
      code: 530010,
      message: 'User account is non-provisional and should be authed through OAuth2',
      user_id: person.id,
      provider_type: 'DISCORD_BOT',
      provider_id: null,
      provider_issued_user_id: 'merge-player',
    });

    // The lobby membership moves asynchronously (lobby consumes oauth.user.merged).
    const members = await eventually(
      async () =>
        (await api(stack, 'GET', `/lobbies/${lobby.body.id}`, { token: bot() })).body.members as {
          id: string;
        }[],
      (list) => list.some((m) => m.id === person.id),
    );
    expect(members.map((m) => m.id)).toEqual([person.id]);
    expect(members.map((m) => m.id)).not.toContain(provisionalId);
    const said = await api(stack, 'POST', `/lobbies/${lobby.body.id}/messages`, {
      token: fullBearer,
      body: { content: 'merged' },
    });
    expect(said.status).toBe(201);
  });

  it('finishes a merge whose lobby side died, on restart, and tells the full account’s sessions', async () => {
    const player = await botEndpoint({ external_user_id: 'crash-player' });
    const bearer = `Bearer ${player.body.access_token}`;
    const provisionalId = (await api(stack, 'GET', '/users/@me', { token: bearer })).body.id as string;
    const lobby = await api(stack, 'PUT', '/lobbies', { token: bearer, body: { secret: 'crash-lobby' } });
    expect(lobby.status).toBe(200);
    const person = await newFullAccount('crash-merger');
    const session = await adminExpect(stack.admin, 201, 'POST', `/admin/users/${person.id}/sessions`, {});
    const gateway = await GatewayTestClient.connect(await gatewayUrl());
    try {
      await gateway.identify(session.token as string, { intents: undefined, capabilities: 16381 });
      // lobby dies (SIGKILL: no drain); the merge commits in oauth with its event.
      const lobbies = stack.processes.filter((p) => p.name.replace(/#\d+$/, '') === 'lobby');
      for (const process of lobbies) process.child.kill('SIGKILL');
      await Promise.all(lobbies.map((process) => process.exited));
      const merged = await mergeExchange(
        await person.code(),
        'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        player.body.access_token as string,
      );
      expect(merged.status).toBe(200);

      // Back up, lobby's durable consumer gets the merge and completes it: the full account's
      // session hears USER_MERGE_OPERATION_COMPLETED once the memberships moved.
      await stack.restart('lobby');
      const completed = await gateway.dispatch('USER_MERGE_OPERATION_COMPLETED', 60_000);
      expect(completed.d).toEqual({
        merge_operation_id: expect.stringMatching(/^\d+$/),
        source_user_id: provisionalId,
      });
      const members = (await api(stack, 'GET', `/lobbies/${lobby.body.id}`, { token: bot() })).body
        .members as {
        id: string;
      }[];
      expect(members.map((m) => m.id)).toEqual([person.id]);
    } finally {
      gateway.close();
    }
  });

  it('refuses with 50025, 530014, 530023, changing nothing, never a 5xx', async () => {
    const person = await newFullAccount('refused-merger');
    const code = await person.code();
    const foreign = await botEndpoint({ external_user_id: 'someone' }, `Bot ${other.bot_token}`);
    const cases: [string, string, number, number][] = [
      ['DISCORD_BOT_ISSUED_ACCESS_TOKEN', 'not-a-token', 403, 50025],
      ['DISCORD_BOT_ISSUED_ACCESS_TOKEN', foreign.body.access_token as string, 403, 50025],
      ['DISCORD_BOT_ISSUED_ACCESS_TOKEN', 'x'.repeat(10241), 403, 50025],
      ['NOT_A_TYPE', 'x', 403, 50025],
      ['OIDC', 'not.a.jwt', 403, 50025],
      ['DISCORD_BOT_ISSUED_ACCESS_TOKEN', fullAccount.bearer.slice('Bearer '.length), 400, 530014],
    ];
    for (const [type, token, status, code_] of cases) {
      const answer = await mergeExchange(code, type, token);
      expect([type, answer.status, answer.body.code]).toEqual([type, status, code_]);
    }
    // The code was not spent by the refusals: a merge with a good token works.
    const first = await botEndpoint({ external_user_id: 'refused-1' });
    expect(
      (await mergeExchange(code, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', first.body.access_token)).status,
    ).toBe(200);
    // A second identity of this application for the same full account: 530023.
    const second = await botEndpoint({ external_user_id: 'refused-2' });
    const tooMany = await mergeExchange(
      await person.code(),
      'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      second.body.access_token,
    );
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 530023]);
    expect(
      (await api(stack, 'GET', '/users/@me', { token: `Bearer ${second.body.access_token}` })).status,
    ).toBe(200);
  });
});

describe('unmerging', () => {
  it('gives the identity back to a new provisional account and ends the full account’s tokens (204)', async () => {
    const player = await botEndpoint({ external_user_id: 'unmerge-player' });
    const person = await newFullAccount('unmerger');
    const merged = await mergeExchange(
      await person.code(),
      'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      player.body.access_token,
    );
    const fullBearer = `Bearer ${merged.body.access_token}`;
    expect((await api(stack, 'GET', '/users/@me', { token: fullBearer })).status).toBe(200);
    const lobby = await api(stack, 'PUT', '/lobbies', {
      token: fullBearer,
      body: { secret: 'unmerge-lobby' },
    });
    expect(lobby.status).toBe(200);

    const unmerge = (body: unknown, token = bot()) =>
      api(stack, 'POST', '/partner-sdk/provisional-accounts/unmerge/bot', { token, body });
    expect((await unmerge({ external_user_id: 'unmerge-player' })).status).toBe(204);
    expect((await api(stack, 'GET', '/users/@me', { token: fullBearer })).status).toBe(401);
    const back = await botEndpoint({ external_user_id: 'unmerge-player' });
    expect(back.status).toBe(200);
    const backBearer = `Bearer ${back.body.access_token}`;
    const me = await api(stack, 'GET', '/users/@me', { token: backBearer });
    expect(me.body.id).not.toBe(person.id);
    expect(me.body.flags).toBe(1 << 23);
    // The full account's lobby membership is copied to the new account (lobby consumes oauth.user.unmerged).
    const members = await eventually(
      async () =>
        (await api(stack, 'GET', `/lobbies/${lobby.body.id}`, { token: bot() })).body.members as {
          id: string;
        }[],
      (list) => list.some((m) => m.id === me.body.id),
    );
    expect(members.map((m) => m.id).sort()).toEqual([person.id, me.body.id].sort());
    const said = await api(stack, 'POST', `/lobbies/${lobby.body.id}/messages`, {
      token: backBearer,
      body: { content: 'unmerged' },
    });
    expect(said.status).toBe(201);

    const again = await unmerge({ external_user_id: 'unmerge-player' });
    expect([again.status, again.body.code]).toEqual([400, 50229]);
    expect((await unmerge({ external_user_id: 'never-seen' })).status).toBe(404);
    for (const body of [{}, { external_user_id: 'x'.repeat(1025) }, { external_user_id: 'a\u0000' }, [1]]) {
      const bad = await unmerge(body);
      expect([bad.status, bad.body.code]).toEqual([400, bad.body.code === 50109 ? 50109 : 50035]);
    }
    expect((await unmerge({ external_user_id: 'x' }, fullAccount.bearer)).body.code).toBe(20002);
    expect((await unmerge({ external_user_id: 'x' }, '')).status).toBe(401);
    const client = await api(stack, 'POST', '/partner-sdk/provisional-accounts/unmerge', {
      body: {
        client_id: world.application.id,
        client_secret: 'wrong',
        external_auth_type: 'STEAM_SESSION_TICKET',
        external_auth_token: 'x',
      },
    });
    expect([client.status, client.body.code]).toEqual([400, 530007]);
  });

  it('unmerges with client credentials and the identity’s provider token (204)', async () => {
    // The test issuer of STEAM_SESSION_TICKET is on for the demo application (the exchange's tests).
    const app = world.application;
    const ticket = async () =>
      (
        await adminExpect(stack.admin, 200, 'POST', `/admin/applications/${app.id}/external-tokens`, {
          external_auth_type: 'STEAM_SESSION_TICKET',
          external_user_id: 'steam-unmerger',
        })
      ).external_auth_token as string;
    const steam = async () => ({
      client_id: app.id,
      client_secret: app.clientSecret,
      external_auth_type: 'STEAM_SESSION_TICKET',
      external_auth_token: await ticket(),
    });
    const first = await api(stack, 'POST', '/partner-sdk/token', { body: await steam() });
    expect(first.status).toBe(200);
    const person = await newFullAccount('steam-unmerger');
    const merged = await mergeExchange(await person.code(), 'STEAM_SESSION_TICKET', await ticket());
    expect(merged.status).toBe(200);
    const fullBearer = `Bearer ${merged.body.access_token}`;
    expect((await api(stack, 'GET', '/users/@me', { token: fullBearer })).body.id).toBe(person.id);

    const unmerged = await api(stack, 'POST', '/partner-sdk/provisional-accounts/unmerge', {
      body: await steam(),
    });
    expect(unmerged.status).toBe(204);
    expect((await api(stack, 'GET', '/users/@me', { token: fullBearer })).status).toBe(401);
    const back = await api(stack, 'POST', '/partner-sdk/token', { body: await steam() });
    expect(back.status).toBe(200);
    const me = await api(stack, 'GET', '/users/@me', { token: `Bearer ${back.body.access_token}` });
    expect(me.body.id).not.toBe(person.id);
    expect(me.body.flags).toBe(1 << 23);
    // Hostile input on the client route: its documented codes, never a 5xx.
    for (const body of [
      { ...(await steam()), external_auth_token: 'x'.repeat(10241) },
      { ...(await steam()), external_auth_type: 'NOT_A_TYPE' },
      { ...(await steam()), client_id: '18446744073709551616' },
      { ...(await steam()), external_auth_token: 'a\u0000' },
    ]) {
      const bad = await api(stack, 'POST', '/partner-sdk/provisional-accounts/unmerge', { body });
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
      expect(typeof bad.body.code).toBe('number');
    }
  });
});

describe('bans', () => {
  let receiver: WebhookReceiver;
  afterAll(async () => {
    await receiver?.stop();
  });

  it('delete the tokens at once, tell the app’s webhook, and restrict the player until the ban lifts', async () => {
    const app = world.application;
    receiver = await new WebhookReceiver(app.verifyKey).start();
    await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${app.id}`, {
      event_webhooks_url: receiver.url,
      event_webhooks_types: ['APPLICATION_DEAUTHORIZED'],
      event_webhooks_status: 2,
    });
    const player = await botEndpoint({ external_user_id: 'banned-player' });
    const person = await newFullAccount('banned');
    const merged = await mergeExchange(
      await person.code(),
      'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      player.body.access_token,
    );
    const fullBearer = `Bearer ${merged.body.access_token}`;
    expect((await api(stack, 'GET', '/users/@me', { token: fullBearer })).status).toBe(200);
    // A gateway session of the player (the admin API's session stands in for the SDK's connection).
    const session = await adminExpect(stack.admin, 201, 'POST', `/admin/users/${person.id}/sessions`, {});
    const gateway = await GatewayTestClient.connect(await gatewayUrl());
    await gateway.identify(session.token as string, { intents: undefined, capabilities: 16381 });

    const until = new Date(Date.now() + 3_600_000).toISOString();
    const ban = await stack.admin('POST', `/admin/users/${person.id}/ban`, { reason: 'cheating', until });
    expect([ban.status, ban.body]).toEqual([200, { user_id: person.id, reason: 'cheating', until }]);
    expect((await api(stack, 'GET', '/users/@me', { token: fullBearer })).status).toBe(401);
    // The session ends at once (oauth.user.banned: every dispatcher replica closes the user's sessions).
    await expect(gateway.closed).resolves.toMatchObject({ code: 4004 });
    const refresh = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: merged.body.refresh_token,
        client_id: app.id,
        client_secret: app.clientSecret,
      }).toString(),
    });
    expect([refresh.status, ((await refresh.json()) as { error: string }).error]).toEqual([
      400,
      'invalid_grant',
    ]);

    // APPLICATION_DEAUTHORIZED with the user, signed (discord-interactions' verifyKey).
    const event = await eventually(
      async () => receiver.events().find((r) => r.body?.event?.type === 'APPLICATION_DEAUTHORIZED'),
      (found) => found !== undefined,
    );
    expect(event!.body).toMatchObject({
      application_id: app.id,
      event: { data: { user: { id: person.id } } },
    });

    // The identity has a restricted provisional account: its merge fails with 530017.
    const restricted = await botEndpoint({ external_user_id: 'banned-player' });
    expect(restricted.status).toBe(200);
    const other_ = await newFullAccount('after-ban');
    const code = await other_.code();
    const refused = await mergeExchange(
      code,
      'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      restricted.body.access_token,
    );
    expect([refused.status, refused.body.code]).toEqual([400, 530017]);
    expect((await stack.admin('DELETE', `/admin/users/${person.id}/ban`)).status).toBe(204);
    const allowed = await mergeExchange(
      code,
      'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      restricted.body.access_token,
    );
    expect(allowed.status).toBe(200);

    for (const body of [{ until: 'soon' }, { until: '2001-01-01T00:00:00Z' }, { reason: 'r'.repeat(513) }]) {
      const bad = await stack.admin('POST', `/admin/users/${person.id}/ban`, body);
      expect([bad.status, bad.body.code]).toEqual([400, 50035]);
    }
    expect((await stack.admin('POST', '/admin/users/18446744073709551616/ban', {})).status).toBe(400);
    expect((await stack.admin('POST', '/admin/users/1/ban', {})).status).toBe(404);
  });
});

describe('USER_UPDATE on a rename', () => {
  it('reaches the provisional player’s gateway sessions with the new name', async () => {
    const player = await botEndpoint({ external_user_id: 'gateway-renamer', preferred_global_name: 'Old' });
    const bearer = `Bearer ${player.body.access_token}`;
    const id = (await api(stack, 'GET', '/users/@me', { token: bearer })).body.id as string;
    // A session of the player (the admin API's): the SDK's gateway connection stands in.
    const session = await adminExpect(stack.admin, 201, 'POST', `/admin/users/${id}/sessions`, {});
    const gatewayUrl = ((await (await fetch(`${stack.apiUrl}/api/v10/gateway`)).json()) as { url: string })
      .url;
    const client = await GatewayTestClient.connect(gatewayUrl);
    try {
      await client.identify(session.token as string, { intents: undefined, capabilities: 16381 });
      const renamed = await api(stack, 'PATCH', '/users/@me/account', {
        token: bearer,
        body: { global_name: 'New' },
      });
      expect(renamed.status).toBe(200);
      const update = await client.dispatch('USER_UPDATE', 15_000);
      expect(update.d).toMatchObject({ id, global_name: 'New', public_flags: 1 << 23 });
    } finally {
      client.close();
    }
  });
});

describe('OIDC identity providers', () => {
  const issuers: OidcIssuer[] = [];
  afterAll(async () => {
    for (const issuer of issuers) await issuer.stop();
  });
  /** A new issuer on loopback, configured as the OIDC provider of `applicationId`. */
  async function issuerFor(applicationId: string, audience?: string): Promise<OidcIssuer> {
    const issuer = await new OidcIssuer().start();
    issuers.push(issuer);
    const put = await adminExpect(
      stack.admin,
      200,
      'PUT',
      `/admin/applications/${applicationId}/identity-providers/OIDC`,
      { issuer: issuer.issuer, ...(audience === undefined ? {} : { audience }) },
    );
    expect(put).toEqual({
      external_auth_type: 'OIDC',
      issuer: issuer.issuer,
      audience: audience ?? null,
      test_issuer: false,
    });
    return issuer;
  }
  const exchange = (app: { id: string; clientSecret: string }, token: string) =>
    api(stack, 'POST', '/partner-sdk/token', {
      body: {
        client_id: app.id,
        client_secret: app.clientSecret,
        external_auth_type: 'OIDC',
        external_auth_token: token,
      },
    });

  it('exchanges an ID token its issuer signed for a provisional account named after preferred_username', async () => {
    const app = world.application;
    const issuer = await issuerFor(app.id);
    const first = await exchange(app, await issuer.sign('oidc-sub-1', app.id, { preferred_username: 'Ida' }));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'identify sdk.social_layer',
      id_token: expect.any(String),
    });
    const me = await api(stack, 'GET', '/users/@me', { token: `Bearer ${first.body.access_token}` });
    expect(me.body).toMatchObject({ global_name: 'Ida', flags: 1 << 23 });
    // The same subject again (an array audience this time) is the same player; the cache answered.
    const again = await exchange(app, await issuer.sign('oidc-sub-1', app.id, { aud: ['x', app.id] }));
    expect(again.status).toBe(200);
    const meAgain = await api(stack, 'GET', '/users/@me', { token: `Bearer ${again.body.access_token}` });
    expect(meAgain.body.id).toBe(me.body.id);
    expect(issuer.requests.get('/.well-known/openid-configuration')).toBe(1);
    expect(issuer.requests.get('/jwks')).toBe(1);

    // Merged into a full account, the identity answers 530010 naming the issuer.
    const person = await newFullAccount('oidc-merger');
    const merged = await mergeExchange(await person.code(), 'OIDC', await issuer.sign('oidc-sub-1', app.id));
    expect(merged.status).toBe(200);
    const after = await exchange(app, await issuer.sign('oidc-sub-1', app.id));
    expect(after.body).toEqual({
      code: 530010,
      message: 'User account is non-provisional and should be authed through OAuth2',
      user_id: person.id,
      provider_type: 'OIDC',
      provider_id: issuer.issuer,
      provider_issued_user_id: 'oidc-sub-1',
    });
    // The client's unmerge with an ID token gives the identity back to a new provisional account.
    const unmerge = await api(stack, 'POST', '/partner-sdk/provisional-accounts/unmerge', {
      body: {
        client_id: app.id,
        client_secret: app.clientSecret,
        external_auth_type: 'OIDC',
        external_auth_token: await issuer.sign('oidc-sub-1', app.id),
      },
    });
    expect(unmerge.status).toBe(204);
    const back = await exchange(app, await issuer.sign('oidc-sub-1', app.id));
    expect(back.status).toBe(200);
    // A merge with a bad ID token is the merge table's 50025.
    const refused = await mergeExchange(await person.code(), 'OIDC', await issuer.sign('s', 'not-the-app'));
    expect([refused.status, refused.body.code]).toEqual([403, 50025]);
  });

  it('answers each failed check with its 5300xx code, never a 5xx', async () => {
    const app = world.application;
    const issuer = await issuerFor(app.id);
    const now = Math.floor(Date.now() / 1000);
    const [header, payload] = (await issuer.sign('s', app.id)).split('.');
    const hs256 = [
      Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'k1' })).toString('base64url'),
      payload,
      'c2lnbmF0dXJl',
    ].join('.');
    const cases: [string, string][] = [
      ['not.a.jwt', 'malformed'],
      ['x'.repeat(10240), 'not a JWT'],
      [hs256, 'HS256'],
      [await issuer.sign('s', app.id, {}, { kid: undefined }), 'no kid'],
      [await issuer.sign('s', app.id, {}, { kid: 'unknown' }), 'unknown kid'],
      [`${header}.${payload}.${'A'.repeat(342)}`, 'bad signature'],
      [await issuer.sign('s', app.id, { iss: 'https://other.example' }), 'iss'],
      [await issuer.sign('s', 'another-client'), 'aud'],
      [await issuer.sign('s', app.id, { exp: now - 600 }), 'exp'],
      [await issuer.sign('s', app.id, { iat: now - 8 * 86400 }), 'iat'],
      [await issuer.sign('s', app.id, { sub: undefined }), 'sub'],
    ];
    const codes: Record<string, number> = {};
    for (const [token, what] of cases) {
      const answer = await exchange(app, token);
      expect([what, answer.status]).toEqual([what, 400]);
      codes[what] = answer.body.code;
    }
    expect(codes).toEqual({
      malformed: 530020,
      'not a JWT': 530020,
      HS256: 530020,
      'no kid': 530027,
      'unknown kid': 530020,
      'bad signature': 530020,
      iss: 530002,
      aud: 530003,
      exp: 530001,
      iat: 530004,
      sub: 530020,
    });
    // The configured audience replaces the client id.
    await adminExpect(stack.admin, 200, 'PUT', `/admin/applications/${app.id}/identity-providers/OIDC`, {
      issuer: issuer.issuer,
      audience: 'my-game',
    });
    expect((await exchange(app, await issuer.sign('s', 'my-game'))).status).toBe(200);
    expect((await exchange(app, await issuer.sign('s', app.id))).body.code).toBe(530003);
  });

  it('answers an issuer that redirects, stalls, answers a huge or wrong document with 530008 / 530009', async () => {
    const cases: [IssuerMisbehaviour, number][] = [
      ['redirect', 530008],
      ['slow', 530008],
      ['huge', 530008],
      ['not-json', 530008],
      ['wrong-issuer', 530008],
      ['broken-jwks', 530009],
    ];
    for (const [misbehave, code] of cases) {
      const game = await createApplication(stack, { name: `OIDC ${misbehave}` });
      const app = { id: game.id, clientSecret: game.client_secret };
      const issuer = await issuerFor(app.id);
      issuer.misbehave = misbehave;
      const answer = await exchange(app, await issuer.sign('s', app.id));
      expect([misbehave, answer.status, answer.body.code]).toEqual([misbehave, 400, code]);
    }
  });

  it('refuses issuers that are not https URLs of public names (50035), and OIDC tokens without a provider', async () => {
    const game = await createApplication(stack, { name: 'OIDC config' });
    const put = (body: unknown) =>
      stack.admin('PUT', `/admin/applications/${game.id}/identity-providers/OIDC`, body);
    for (const issuer of [
      'http://issuer.example',
      'https://10.0.0.1',
      'https://[::1]:8443',
      'https://localhost',
      'https://auth.internal',
      'https://issuer.example/?x=1',
      'https://issuer.example/#f',
      'https://user:pass@issuer.example',
      'http://127.0.0.2:9999',
      'not a url',
      'https://a\u0000b.example',
    ]) {
      const answer = await put({ issuer });
      expect([issuer, answer.status, answer.body.code]).toEqual([issuer, 400, 50035]);
    }
    for (const body of [{}, { issuer: 42 }, { issuer: 'https://issuer.example', audience: '' }]) {
      expect((await put(body)).status).toBe(400);
    }
    expect((await put({ issuer: 'https://issuer.example:8443/tenant' })).status).toBe(200);
    const other_ = await createApplication(stack, { name: 'OIDC none' });
    const none = await exchange({ id: other_.id, clientSecret: other_.client_secret }, 'a.b.c');
    expect([none.status, none.body.code]).toEqual([400, 50035]);
  });
});

describe('the client library’s redirects', () => {
  it('accepts discord-<id>:/authorize/callback with PKCE, loopback on any port, and refuses others', async () => {
    const app = world.application;
    await adminExpect(stack.admin, 200, 'PATCH', `/admin/applications/${app.id}`, {
      redirect_uris: [REDIRECT, 'http://127.0.0.1/callback', 'mygame:/authorize/callback'],
    });
    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = (redirectUri: string, pkce: boolean) =>
      stack.admin('POST', '/admin/oauth2/authorize', {
        client_id: app.id,
        user_id: fullAccount.id,
        scope: 'openid sdk.social_layer',
        redirect_uri: redirectUri,
        ...(pkce ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
      });
    const exchange = (code: string, redirectUri: string) =>
      fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          client_id: app.id,
          client_secret: app.clientSecret,
        }).toString(),
      });
    for (const uri of [
      `discord-${app.id}:/authorize/callback`,
      'mygame:/authorize/callback',
      'http://127.0.0.1:42149/callback',
    ]) {
      const consent = await authorize(uri, true);
      expect([uri, consent.status]).toEqual([uri, 200]);
      expect(consent.body.location).toMatch(new RegExp(`^${uri.replace(/[.:/[\]]/g, '\\$&')}\\?code=`));
      const token = await exchange(consent.body.code as string, uri);
      expect([uri, token.status]).toEqual([uri, 200]);
      const body = (await token.json()) as Record<string, string>;
      expect(String(body.scope).split(' ').sort()).toEqual(['openid', 'sdk.social_layer']);
      expect(body.id_token).toEqual(expect.any(String));
    }
    // A custom scheme without PKCE, another app's default scheme, an unregistered loopback path.
    const noPkce = await authorize(`discord-${app.id}:/authorize/callback`, false);
    expect([noPkce.status, noPkce.body.code]).toEqual([400, 50035]);
    expect(noPkce.body.errors).toHaveProperty('code_challenge');
    for (const uri of [`discord-${other.id}:/authorize/callback`, 'http://127.0.0.1:5/elsewhere']) {
      const refused = await authorize(uri, true);
      expect([uri, refused.status, refused.body.code]).toEqual([uri, 400, 50035]);
    }
    // The exchange needs the very redirect the consent used, port included.
    const consent = await authorize('http://127.0.0.1:42149/callback', true);
    const mismatch = await exchange(consent.body.code as string, 'http://127.0.0.1:42150/callback');
    expect(mismatch.status).toBe(400);
  });
});
