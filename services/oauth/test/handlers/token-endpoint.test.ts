import { createHash, randomBytes } from 'node:crypto';
import { OAuth2Error } from '@acs/discord-errors';
import type { oauth } from '@acs/protos';
import {
  createApp,
  createOAuthTestEnv,
  createUser,
  dumpOAuthTables,
  type OAuthTestEnv,
} from '../support/oauth-test-env';

// The token endpoint's rules, driven through the handlers against PostgreSQL with a
// movable clock: single-use codes, expiry, redirect URI and PKCE binding, refresh
// rotation with reuse detection (also when concurrent), client credentials, revocation.

let env: OAuthTestEnv;
let app: { id: string; secret: string };
let publicApp: { id: string; secret: string };
let ownerless: { id: string; secret: string };
let user: string;
let owner: string;
/** Every raw secret the tests saw: none may be in the database. */
const secrets: string[] = [];

const REDIRECT = 'https://app.example/callback';

beforeAll(async () => {
  env = await createOAuthTestEnv();
  owner = (await createUser(env.handlers, { username: 'owner' })).id as string;
  user = (await createUser(env.handlers, { username: 'alice', email: 'a@example.com' })).id as string;
  const made = async (body: object) => {
    const json = await createApp(env.handlers, body);
    secrets.push(json.client_secret as string, json.bot_token as string);
    return { id: json.id as string, secret: json.client_secret as string };
  };
  app = await made({ name: 'Game', redirect_uris: [REDIRECT, 'https://app.example/other'], owner_id: owner });
  publicApp = await made({ name: 'Public', redirect_uris: [REDIRECT], public_client: true, owner_id: owner });
  ownerless = await made({ name: 'Ownerless', redirect_uris: [REDIRECT] });
});
afterAll(() => env.close());

async function authorize(extra: Record<string, unknown> = {}, client = app): Promise<string> {
  const answer = await env.handlers.Authorize({
    body_json: JSON.stringify({
      client_id: client.id,
      user_id: user,
      scope: 'identify guilds',
      redirect_uri: REDIRECT,
      ...extra,
    }),
  });
  if (!answer.code) throw new Error('no code was issued');
  secrets.push(answer.code);
  return answer.code;
}

function exchange(
  params: Record<string, string>,
  client: { id: string; secret: string } = app,
  secret = client.secret,
) {
  return env.handlers
    .ExchangeToken({
      params,
      client_id: client.id,
      client_secret: secret,
      auth_method: 'CLIENT_AUTH_METHOD_POST',
      issuer: '',
    })
    .then((answer: oauth.ExchangeTokenResponse) => {
      secrets.push(answer.access_token ?? '', answer.refresh_token ?? '');
      return answer;
    });
}

async function oauthErrorOf(
  promise: Promise<unknown>,
): Promise<{ status: number; error: string; description?: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OAuth2Error)
      return { status: error.httpStatus, error: error.error, description: error.errorDescription };
    throw error;
  }
  throw new Error('expected an OAuth2Error');
}

const resolves = (token: string) =>
  env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token }).then(
    () => true,
    () => false,
  );

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('authorization_code', () => {
  it('exchanges a code once for a Bearer token of 7 days with a refresh token', async () => {
    const code = await authorize();
    const answer = await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(answer).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'identify guilds' });
    expect(answer.access_token).toMatch(/^[\w-]{30}$/);
    expect(answer.refresh_token).toMatch(/^[\w-]{30}$/);
    const principal = await env.handlers.ResolveToken({
      kind: 'PRINCIPAL_KIND_BEARER',
      token: answer.access_token!,
    });
    expect(principal).toMatchObject({
      application_id: app.id,
      user_id: user,
      scopes: ['identify', 'guilds'],
    });
  });

  it('refuses a second use and revokes what the first use issued', async () => {
    const code = await authorize();
    const first = await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(
      await oauthErrorOf(exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })),
    ).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Invalid "code" in request.',
    });
    expect(await resolves(first.access_token!)).toBe(false);
    const refresh = await oauthErrorOf(
      exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }),
    );
    expect(refresh.error).toBe('invalid_grant');
  });

  it('lets exactly one of two concurrent exchanges of one code succeed', async () => {
    const code = await authorize();
    const results = await Promise.allSettled(
      [0, 1].map(() => exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('expires codes after their lifetime (100 s)', async () => {
    const code = await authorize();
    const start = env.clock.now;
    env.clock.now = new Date(start.getTime() + 100_000);
    try {
      expect(
        (await oauthErrorOf(exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })))
          .error,
      ).toBe('invalid_grant');
    } finally {
      env.clock.now = start;
    }
    const fresh = await authorize();
    env.clock.now = new Date(start.getTime() + 99_000);
    try {
      await expect(
        exchange({ grant_type: 'authorization_code', code: fresh, redirect_uri: REDIRECT }),
      ).resolves.toBeDefined();
    } finally {
      env.clock.now = start;
    }
  });

  it.each([
    ['one character off', 'https://app.example/callbacK'],
    ['a trailing slash', `${REDIRECT}/`],
    ['an extra query', `${REDIRECT}?x=1`],
    ['another registered URI', 'https://app.example/other'],
    ['missing', undefined],
  ])('refuses a redirect_uri %s', async (_name, redirect) => {
    const code = await authorize();
    const params: Record<string, string> = { grant_type: 'authorization_code', code };
    if (redirect !== undefined) params.redirect_uri = redirect;
    expect(await oauthErrorOf(exchange(params))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Invalid "redirect_uri" in request.',
    });
  });

  it("binds the code to its client: another client's attempt neither spends it nor revokes its grant", async () => {
    const params = () => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    const code = await authorize();
    const stranger = { ...publicApp, secret: '' };
    expect(await oauthErrorOf(exchange(params(), stranger))).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Invalid "code" in request.',
    });
    const mine = await exchange(params());
    expect(mine.token_type).toBe('Bearer');
    // Once spent, another client's replay is not a reuse of the owner's code.
    expect((await oauthErrorOf(exchange(params(), stranger))).error).toBe('invalid_grant');
    expect(await resolves(mine.access_token!)).toBe(true);
  });

  it('enforces PKCE S256 and refuses downgrades both ways', async () => {
    const { verifier, challenge } = pkcePair();
    const withChallenge = () => authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
    const base = { grant_type: 'authorization_code', redirect_uri: REDIRECT };
    // A challenge, no verifier.
    expect((await oauthErrorOf(exchange({ ...base, code: await withChallenge() }))).description).toBe(
      'Invalid "code_verifier" in request.',
    );
    // A wrong verifier.
    expect(
      (
        await oauthErrorOf(
          exchange({ ...base, code: await withChallenge(), code_verifier: pkcePair().verifier }),
        )
      ).error,
    ).toBe('invalid_grant');
    // A verifier, no challenge (downgrade).
    expect(
      (await oauthErrorOf(exchange({ ...base, code: await authorize(), code_verifier: verifier }))).error,
    ).toBe('invalid_grant');
    // The right verifier.
    await expect(
      exchange({ ...base, code: await withChallenge(), code_verifier: verifier }),
    ).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('lets a public client exchange a PKCE code without a secret, but not a code without PKCE', async () => {
    const { verifier, challenge } = pkcePair();
    const base = { grant_type: 'authorization_code', redirect_uri: REDIRECT };
    const code = await authorize({ code_challenge: challenge, code_challenge_method: 'S256' }, publicApp);
    const answer = await exchange({ ...base, code, code_verifier: verifier }, publicApp, '');
    expect(answer.refresh_token).not.toBe('');
    const plain = await authorize({}, publicApp);
    expect((await oauthErrorOf(exchange({ ...base, code: plain }, publicApp, ''))).error).toBe(
      'invalid_grant',
    );
    // A confidential client never goes without its secret.
    const other = await authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect(
      await oauthErrorOf(exchange({ ...base, code: other, code_verifier: verifier }, app, '')),
    ).toMatchObject({
      status: 401,
      error: 'invalid_client',
    });
  });
});

describe('refresh_token', () => {
  async function tokens() {
    return exchange({ grant_type: 'authorization_code', code: await authorize(), redirect_uri: REDIRECT });
  }

  it('rotates: a new refresh token each time, the old one dead', async () => {
    const first = await tokens();
    const second = await exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('identify guilds');
    const third = await exchange({
      grant_type: 'refresh_token',
      refresh_token: second.refresh_token!,
      scope: 'identify',
    });
    expect(third.scope).toBe('identify');
    expect(await resolves(third.access_token!)).toBe(true);
  });

  it('revokes the whole family when a spent refresh token comes back', async () => {
    const first = await tokens();
    const second = await exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(
      await oauthErrorOf(exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! })),
    ).toEqual({
      status: 400,
      error: 'invalid_grant',
      description: 'Invalid "refresh_token" in request.',
    });
    expect(await resolves(second.access_token!)).toBe(false);
    expect(await resolves(first.access_token!)).toBe(false);
    expect(
      (await oauthErrorOf(exchange({ grant_type: 'refresh_token', refresh_token: second.refresh_token! })))
        .error,
    ).toBe('invalid_grant');
  });

  it('lets exactly one of concurrent refreshes with one token succeed', async () => {
    const first = await tokens();
    const results = await Promise.allSettled(
      [0, 1, 2].map(() => exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const losers = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    for (const loser of losers) expect(loser.reason).toBeInstanceOf(OAuth2Error);
  });

  it('refuses scopes beyond the grant without spending the token, and other clients', async () => {
    const first = await tokens();
    expect(
      (
        await oauthErrorOf(
          exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, scope: 'email' }),
        )
      ).error,
    ).toBe('invalid_scope');
    expect(
      (
        await oauthErrorOf(
          exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, ownerless),
        )
      ).error,
    ).toBe('invalid_grant');
    await expect(
      exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }),
    ).resolves.toBeDefined();
  });
});

describe('client_credentials', () => {
  it("issues the owner's token without a refresh token", async () => {
    const answer = await exchange({
      grant_type: 'client_credentials',
      scope: 'identify applications.commands.update',
    });
    expect(answer).toMatchObject({
      token_type: 'Bearer',
      refresh_token: '',
      scope: 'identify applications.commands.update',
    });
    const principal = await env.handlers.ResolveToken({
      kind: 'PRINCIPAL_KIND_BEARER',
      token: answer.access_token!,
    });
    expect(principal).toMatchObject({ application_id: app.id, user_id: owner });
  });

  it.each([
    ['no scope', undefined, 'invalid_scope'],
    ['an unknown scope', 'identify nope', 'invalid_scope'],
    ['an installing scope', 'bot', 'invalid_scope'],
    ['command permissions', 'applications.commands.permissions.update', 'invalid_scope'],
  ])('refuses %s', async (_name, scope, error) => {
    const params: Record<string, string> = { grant_type: 'client_credentials' };
    if (scope !== undefined) params.scope = scope;
    expect((await oauthErrorOf(exchange(params))).error).toBe(error);
  });

  it('is not for apps without an owner, nor for public clients', async () => {
    const params = { grant_type: 'client_credentials', scope: 'identify' };
    expect(await oauthErrorOf(exchange(params, ownerless))).toMatchObject({
      status: 400,
      error: 'unauthorized_client',
    });
    expect(await oauthErrorOf(exchange(params, publicApp))).toMatchObject({
      status: 400,
      error: 'unauthorized_client',
    });
    expect(await oauthErrorOf(exchange(params, publicApp, ''))).toMatchObject({
      status: 401,
      error: 'invalid_client',
    });
  });
});

describe('client authentication and revocation', () => {
  it('answers 401 invalid_client with WWW-Authenticate for a bad secret or unknown client', async () => {
    for (const call of [
      () => exchange({ grant_type: 'client_credentials', scope: 'identify' }, app, 'wrong'),
      () => exchange({ grant_type: 'client_credentials', scope: 'identify' }, { id: '1', secret: 'x' }),
      () => exchange({ grant_type: 'client_credentials', scope: 'identify' }, { id: 'abc', secret: 'x' }),
    ]) {
      try {
        await call();
        throw new Error('expected a failure');
      } catch (error) {
        expect(error).toBeInstanceOf(OAuth2Error);
        expect((error as OAuth2Error).httpStatus).toBe(401);
        expect((error as OAuth2Error).headers).toEqual({ 'WWW-Authenticate': 'Basic realm="ACS"' });
      }
    }
  });

  it('revokes every token of the authorization from any one of them, and no other client may', async () => {
    const first = await exchange({
      grant_type: 'authorization_code',
      code: await authorize(),
      redirect_uri: REDIRECT,
    });
    const second = await exchange({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    const revoke = (token: string, client = app) =>
      env.handlers.RevokeToken({
        token,
        token_type_hint: '',
        client_id: client.id,
        client_secret: client.secret,
        auth_method: 'CLIENT_AUTH_METHOD_POST',
      });
    expect(await revoke(second.refresh_token!, ownerless)).toMatchObject({ revoked: false });
    expect(await resolves(second.access_token!)).toBe(true);
    expect(await revoke(first.access_token!)).toMatchObject({ revoked: true });
    expect(await resolves(second.access_token!)).toBe(false);
    expect(
      (await oauthErrorOf(exchange({ grant_type: 'refresh_token', refresh_token: second.refresh_token! })))
        .error,
    ).toBe('invalid_grant');
    expect(await revoke('not-a-token')).toMatchObject({ revoked: false });
    const events = await env.pool.query(
      `SELECT payload FROM "oauth"."outbox" WHERE subject LIKE '%application.deauthorized'`,
    );
    expect(events.rows.length).toBeGreaterThan(0);
  });
});

it('stores no raw token, code or secret', async () => {
  const dump = await dumpOAuthTables(env.pool);
  const seen = secrets.filter((s) => s !== '');
  expect(seen.length).toBeGreaterThan(40);
  for (const secret of seen) expect(dump).not.toContain(secret);
});
