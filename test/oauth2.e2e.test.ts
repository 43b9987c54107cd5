import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { findTestServers } from '@acs/testing';
import { expectSchema } from './helpers/openapi-validator';
import { createDemoWorld, startTestStack, type DemoWorld, type TestStack } from './support';

// OAuth2 through the running stack: the token endpoint's error matrix, every grant,
// revocation, scopes on every route that needs one, the current user's routes, app
// isolation, deauthorization, and a scan of the database for raw secrets.

let stack: TestStack;
let world: DemoWorld;
/** A confidential app with redirect URIs, owned by the demo user. */
let app: { id: string; secret: string; botToken: string };
/** A public client (PKCE without a secret). */
let spa: { id: string; secret: string };
/** An app without an owner: no client credentials. */
let ownerless: { id: string; secret: string };
let alice: { id: string };
const REDIRECT = 'https://game.example/callback';
/** Every raw secret seen: none may be stored. */
const secrets: string[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack.admin);
  secrets.push(world.application.botToken, world.application.clientSecret);
  const created = async (body: Record<string, unknown>) => {
    const answer = await stack.admin('POST', '/admin/applications', body);
    expect(answer.status).toBe(201);
    secrets.push(answer.body.client_secret, answer.body.bot_token);
    return {
      id: answer.body.id as string,
      secret: answer.body.client_secret as string,
      botToken: answer.body.bot_token as string,
    };
  };
  app = await created({ name: 'Game', redirect_uris: [REDIRECT], owner_id: world.user.id });
  spa = await created({
    name: 'Spa',
    redirect_uris: [REDIRECT],
    public_client: true,
    owner_id: world.user.id,
  });
  ownerless = await created({ name: 'Orphan', redirect_uris: [REDIRECT] });
  alice = (
    await stack.admin('POST', '/admin/users', {
      username: 'alice',
      email: 'alice@example.com',
      premium_type: 2,
    })
  ).body;
  // Alice belongs to the demo guild with the demo role.
  expect((await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${alice.id}`, {})).status).toBe(
    201,
  );
});

afterAll(async () => stack?.stop());

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function request(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    method,
    headers: init.headers,
    body: init.body,
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, text, body };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** POST /oauth2/token with a form body and Basic client authentication (unless headers say otherwise). */
async function token(
  params: Record<string, string>,
  client: { id: string; secret: string } | null = app,
  headers: Record<string, string> = {},
) {
  const auth: Record<string, string> = client ? { Authorization: basic(client.id, client.secret) } : {};
  const answer = await request('POST', '/oauth2/token', {
    headers: { ...FORM, ...auth, ...headers },
    body: new URLSearchParams(params).toString(),
  });
  if (answer.status === 200) secrets.push(answer.body.access_token, answer.body.refresh_token ?? '');
  return answer;
}

async function authorize(
  scope: string,
  extra: Record<string, unknown> = {},
  client: { id: string } = app,
  userId = alice.id,
): Promise<string> {
  const answer = await stack.admin('POST', '/admin/oauth2/authorize', {
    client_id: client.id,
    user_id: userId,
    scope,
    redirect_uri: REDIRECT,
    ...extra,
  });
  expect(answer.status).toBe(200);
  secrets.push(answer.body.code);
  return answer.body.code as string;
}

async function userToken(scope: string): Promise<{ access_token: string; refresh_token: string }> {
  const answer = await token({
    grant_type: 'authorization_code',
    code: await authorize(scope),
    redirect_uri: REDIRECT,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

const bearer = (accessToken: string) => ({ Authorization: `Bearer ${accessToken}` });
const bot = (botToken: string) => ({ Authorization: `Bot ${botToken}` });

describe('POST /oauth2/token error matrix', () => {
  let code: string;
  beforeAll(async () => {
    code = await authorize('identify');
  });

  const cases: Array<{
    name: string;
    run: () => Promise<Answer>;
    status: number;
    error: string;
    wwwAuthenticate?: boolean;
  }> = [
    {
      name: 'a JSON body',
      run: () =>
        request('POST', '/oauth2/token', {
          headers: { 'Content-Type': 'application/json', Authorization: basic(app.id, app.secret) },
          body: JSON.stringify({ grant_type: 'client_credentials', scope: 'identify' }),
        }),
      status: 400,
      error: 'invalid_request',
    },
    { name: 'no grant_type', run: () => token({ scope: 'identify' }), status: 400, error: 'invalid_request' },
    {
      name: 'an unknown grant type',
      run: () => token({ grant_type: 'password' }),
      status: 400,
      error: 'unsupported_grant_type',
    },
    {
      name: 'a repeated parameter',
      run: () =>
        request('POST', '/oauth2/token', {
          headers: { ...FORM, Authorization: basic(app.id, app.secret) },
          body: 'grant_type=client_credentials&scope=identify&scope=email',
        }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'bad Basic credentials',
      run: () =>
        token({ grant_type: 'client_credentials', scope: 'identify' }, { id: app.id, secret: 'wrong' }),
      status: 401,
      error: 'invalid_client',
      wwwAuthenticate: true,
    },
    {
      name: 'Basic credentials of an unknown client',
      run: () => token({ grant_type: 'client_credentials', scope: 'identify' }, { id: '42', secret: 'x' }),
      status: 401,
      error: 'invalid_client',
      wwwAuthenticate: true,
    },
    {
      name: 'bad form credentials',
      run: () =>
        token(
          { grant_type: 'client_credentials', scope: 'identify', client_id: app.id, client_secret: 'wrong' },
          null,
        ),
      status: 401,
      error: 'invalid_client',
    },
    {
      name: 'no client authentication',
      run: () => token({ grant_type: 'client_credentials', scope: 'identify' }, null),
      status: 401,
      error: 'invalid_client',
    },
    {
      name: 'Basic and form secrets together',
      run: () => token({ grant_type: 'client_credentials', scope: 'identify', client_secret: app.secret }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'client credentials for an app without an owner',
      run: () => token({ grant_type: 'client_credentials', scope: 'identify' }, ownerless),
      status: 400,
      error: 'unauthorized_client',
    },
    {
      name: 'client credentials for a public client',
      run: () => token({ grant_type: 'client_credentials', scope: 'identify' }, spa),
      status: 400,
      error: 'unauthorized_client',
    },
    {
      name: 'an excess scope',
      run: () => token({ grant_type: 'client_credentials', scope: 'identify bot' }),
      status: 400,
      error: 'invalid_scope',
    },
    {
      name: 'an unknown scope',
      run: () => token({ grant_type: 'client_credentials', scope: 'identify nope' }),
      status: 400,
      error: 'invalid_scope',
    },
    {
      name: 'no code',
      run: () => token({ grant_type: 'authorization_code', redirect_uri: REDIRECT }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'an unknown code',
      run: () => token({ grant_type: 'authorization_code', code: 'nope', redirect_uri: REDIRECT }),
      status: 400,
      error: 'invalid_grant',
    },
    {
      name: "another client's code",
      run: () => token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, ownerless),
      status: 400,
      error: 'invalid_grant',
    },
    {
      name: 'an unknown refresh token',
      run: () => token({ grant_type: 'refresh_token', refresh_token: 'nope' }),
      status: 400,
      error: 'invalid_grant',
    },
  ];

  it.each(cases)('$name → $status $error', async ({ run, status, error, wwwAuthenticate }) => {
    const answer = await run();
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
    expect(answer.body).toEqual({
      error,
      ...(answer.body.error_description ? { error_description: expect.any(String) } : {}),
    });
    expect(Object.keys(answer.body).sort()).toEqual(expect.arrayContaining(['error']));
    if (wwwAuthenticate) expect(answer.headers.get('www-authenticate')).toMatch(/^Basic/);
  });
});

describe('authorization_code through the gateway', () => {
  it('answers the token with no-store, and the token reads the user', async () => {
    const code = await authorize('identify email guilds connections');
    const answer = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: expect.any(String),
      scope: 'identify email guilds connections',
    });
    const me = await request('GET', '/users/@me', { headers: bearer(answer.body.access_token) });
    expect(me.status).toBe(200);
    expectSchema('UserPIIResponse', me.body);
    expect(me.body).toMatchObject({
      id: alice.id,
      email: 'alice@example.com',
      verified: true,
      premium_type: 0,
    });
  });

  it('hides email without `email` and shows premium_type only with identify.premium', async () => {
    const plain = await userToken('identify');
    const me = await request('GET', '/users/@me', { headers: bearer(plain.access_token) });
    expectSchema('UserPIIResponse', me.body);
    expect(me.body).not.toHaveProperty('email');
    expect(me.body).not.toHaveProperty('verified');
    const premium = await userToken('identify identify.premium');
    expect(
      (await request('GET', '/users/@me', { headers: bearer(premium.access_token) })).body.premium_type,
    ).toBe(2);
  });

  it('refuses a reused code and revokes the tokens of its first use', async () => {
    const code = await authorize('identify');
    const first = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect((await request('GET', '/users/@me', { headers: bearer(first.body.access_token) })).status).toBe(
      200,
    );
    const again = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    expect((await request('GET', '/users/@me', { headers: bearer(first.body.access_token) })).status).toBe(
      401,
    );
  });

  it('leaves a code to its client when another client presents it', async () => {
    const code = await authorize('identify');
    const stolen = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, ownerless);
    expect([stolen.status, stolen.body.error]).toEqual([400, 'invalid_grant']);
    const mine = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(mine.status).toBe(200);
    const replay = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, ownerless);
    expect(replay.status).toBe(400);
    expect((await request('GET', '/users/@me', { headers: bearer(mine.body.access_token) })).status).toBe(
      200,
    );
  });

  it.each([
    ['one character', `${REDIRECT.slice(0, -1)}X`],
    ['a trailing slash', `${REDIRECT}/`],
    ['a query', `${REDIRECT}?a=1`],
  ])('refuses a redirect_uri differing by %s', async (_name, redirect) => {
    const answer = await token({
      grant_type: 'authorization_code',
      code: await authorize('identify'),
      redirect_uri: redirect,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('does PKCE S256 for a public client without a secret, and refuses a downgrade', async () => {
    const verifier = randomBytes(40).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await authorize(
      'identify',
      { code_challenge: challenge, code_challenge_method: 'S256' },
      spa,
    );
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: spa.id };
    const ok = await token({ ...form, code_verifier: verifier }, null);
    expect(ok.status).toBe(200);
    const downgrade = await token(
      {
        grant_type: 'authorization_code',
        code: await authorize('identify', {}, spa),
        redirect_uri: REDIRECT,
        client_id: spa.id,
        code_verifier: verifier,
      },
      null,
    );
    expect(downgrade.body.error).toBe('invalid_grant');
    const noVerifier = await token(
      {
        ...form,
        code: await authorize('identify', { code_challenge: challenge, code_challenge_method: 'S256' }, spa),
      },
      null,
    );
    expect(noVerifier.body.error).toBe('invalid_grant');
  });
});

describe('refresh_token through the gateway', () => {
  it('rotates, and a replayed refresh token revokes the family', async () => {
    const first = await userToken('identify');
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await request('GET', '/users/@me', { headers: bearer(second.body.access_token) })).status).toBe(
      200,
    );
    const replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await request('GET', '/users/@me', { headers: bearer(second.body.access_token) })).status).toBe(
      401,
    );
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token })).status,
    ).toBe(400);
  });

  it('lets exactly one of concurrent refreshes succeed', async () => {
    const first = await userToken('identify');
    const answers = await Promise.all(
      [0, 1, 2, 3].map(() => token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 200))
      expect(loser.body.error).toBe('invalid_grant');
  });
});

describe('revocation (RFC 7009)', () => {
  it('answers 200 with an empty body, kills every token of the authorization', async () => {
    const first = await userToken('identify');
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    const revoke = (params: Record<string, string>) =>
      request('POST', '/oauth2/token/revoke', {
        headers: { ...FORM, Authorization: basic(app.id, app.secret) },
        body: new URLSearchParams(params).toString(),
      });
    const unknown = await revoke({ token: 'not-a-token' });
    expect([unknown.status, unknown.text]).toEqual([200, '']);
    const answer = await revoke({ token: second.body.refresh_token, token_type_hint: 'refresh_token' });
    expect([answer.status, answer.text]).toEqual([200, '']);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect((await request('GET', '/users/@me', { headers: bearer(second.body.access_token) })).status).toBe(
      401,
    );
    const missing = await revoke({});
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: 'invalid_request', error_description: expect.any(String) },
    ]);
  });
});

describe('multipart/form-data bodies, as Oceanic.js sends them', () => {
  const post = (path: string, form: FormData) =>
    fetch(`${stack.apiUrl}/api/v10${path}`, { method: 'POST', body: form });
  const formOf = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };

  it('exchanges a code and revokes the token, client credentials in the form', async () => {
    const client = { client_id: app.id, client_secret: app.secret };
    const code = await authorize('identify');
    const exchanged = await post(
      '/oauth2/token',
      formOf({ ...client, grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
    );
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    expect(exchanged.headers.get('x-content-type-options')).toBe('nosniff');
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
    secrets.push(tokens.access_token, tokens.refresh_token);
    expect((await request('GET', '/users/@me', { headers: bearer(tokens.access_token) })).status).toBe(200);

    const revoked = await post('/oauth2/token/revoke', formOf({ ...client, token: tokens.access_token }));
    expect([revoked.status, await revoked.text()]).toEqual([200, '']);
    expect((await request('GET', '/users/@me', { headers: bearer(tokens.access_token) })).status).toBe(401);
  });

  it('answers an oversize form 413, as an oversize JSON body', async () => {
    const urlencoded = await request('POST', '/oauth2/token', {
      headers: { ...FORM, Authorization: basic(app.id, app.secret) },
      body: `grant_type=client_credentials&scope=${'x'.repeat(2 * 1024 * 1024)}`,
    });
    expect(urlencoded.status).toBe(413);
    expect(urlencoded.body).toMatchObject({ code: 40005 });
    const multipart = await post('/oauth2/token', formOf({ grant_type: 'x'.repeat(2 * 1024 * 1024) }));
    expect(multipart.status).toBe(413);
  });
});

describe('scopes on every route', () => {
  it.each([
    ['/users/@me', 'identify'],
    ['/users/@me/guilds', 'guilds'],
    ['/users/@me/connections', 'connections'],
  ])('%s needs %s: 403 / 50026 naming it', async (path, scope) => {
    const narrow = await userToken(scope === 'identify' ? 'email' : 'identify');
    const denied = await request('GET', path, { headers: bearer(narrow.access_token) });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 50026, message: `Missing required OAuth2 scope: ${scope}` });
    const allowed = await userToken(scope);
    expect((await request('GET', path, { headers: bearer(allowed.access_token) })).status).toBe(200);
  });

  it('keeps 401 for bad tokens', async () => {
    for (const headers of [{}, bearer('nope'), bot('nope'), { Authorization: 'Basic abc' }]) {
      const answer = await request('GET', '/users/@me', { headers });
      expect([answer.status, answer.body]).toEqual([401, { code: 0, message: '401: Unauthorized' }]);
    }
  });

  it('needs applications.commands.update to manage commands with a Bearer token', async () => {
    const user = await userToken('identify');
    const denied = await request('GET', `/applications/${app.id}/commands`, {
      headers: bearer(user.access_token),
    });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(50026);
  });
});

describe('the current user', () => {
  it("lists the user's guilds with owner and permissions, paginated, with counts", async () => {
    const second = (await stack.admin('POST', '/admin/guilds', { name: 'Alice Guild', owner_id: alice.id }))
      .body;
    const { access_token } = await userToken('guilds');
    const all = await request('GET', '/users/@me/guilds?with_counts=true', { headers: bearer(access_token) });
    expect(all.status).toBe(200);
    all.body.forEach((g: unknown) => expectSchema('MyGuildResponse', g));
    expect(all.body.map((g: { id: string }) => g.id)).toEqual(
      [world.guild.id, second.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    );
    const mine = all.body.find((g: { id: string }) => g.id === second.id);
    expect(mine).toMatchObject({ owner: true, name: 'Alice Guild', approximate_member_count: 1 });
    expect(typeof mine.permissions).toBe('string');
    const demo = all.body.find((g: { id: string }) => g.id === world.guild.id);
    expect(demo.owner).toBe(false);
    const first = await request('GET', '/users/@me/guilds?limit=1', { headers: bearer(access_token) });
    expect(first.body).toHaveLength(1);
    const after = await request('GET', `/users/@me/guilds?after=${first.body[0].id}`, {
      headers: bearer(access_token),
    });
    expect(after.body.map((g: { id: string }) => g.id)).not.toContain(first.body[0].id);
    const before = await request('GET', `/users/@me/guilds?before=${all.body[1].id}`, {
      headers: bearer(access_token),
    });
    expect(before.body.map((g: { id: string }) => g.id)).toEqual([all.body[0].id]);
    for (const bad of ['limit=0', 'limit=201', 'limit=x', 'after=abc']) {
      expect(
        (await request('GET', `/users/@me/guilds?${bad}`, { headers: bearer(access_token) })).status,
      ).toBe(400);
    }
  });

  it("lists a bot's guilds: where it is installed with `bot`", async () => {
    const answer = await request('GET', '/users/@me/guilds', { headers: bot(world.application.botToken) });
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(1);
    expectSchema('MyGuildResponse', answer.body[0]);
    expect(answer.body[0]).toMatchObject({ id: world.guild.id, owner: false });
    const none = await request('GET', '/users/@me/guilds', { headers: bot(app.botToken) });
    expect(none.body).toEqual([]);
  });

  it('shows connections made through the admin API', async () => {
    const made = await stack.admin('POST', `/admin/users/${alice.id}/connections`, {
      type: 'github',
      id: 'a1',
      name: 'alice-gh',
    });
    expect(made.status).toBe(201);
    const { access_token } = await userToken('connections');
    const answer = await request('GET', '/users/@me/connections', { headers: bearer(access_token) });
    expect(answer.status).toBe(200);
    answer.body.forEach((c: unknown) => expectSchema('ConnectedAccountResponse', c));
    expect(answer.body).toEqual([
      expect.objectContaining({ id: 'a1', type: 'github', name: 'alice-gh', verified: true }),
    ]);
  });

  it("describes a Bearer token (GET /oauth2/@me) and the bot's application", async () => {
    const { access_token } = await userToken('identify guilds');
    const me = await request('GET', '/oauth2/@me', { headers: bearer(access_token) });
    expect(me.status).toBe(200);
    expectSchema('OAuth2GetAuthorizationResponse', me.body);
    expect(me.body).toMatchObject({
      scopes: ['identify', 'guilds'],
      application: { id: app.id },
      user: { id: alice.id },
    });
    expect(new Date(me.body.expires).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect((await request('GET', '/oauth2/@me', { headers: bot(app.botToken) })).status).toBe(403);

    for (const path of ['/oauth2/applications/@me', '/applications/@me']) {
      const mine = await request('GET', path, { headers: bot(app.botToken) });
      expect(mine.status).toBe(200);
      expectSchema('PrivateApplicationResponse', mine.body);
      expect(mine.body.id).toBe(app.id);
      expect(mine.body).not.toHaveProperty('client_secret');
      const denied = await request('GET', path, { headers: bearer(access_token) });
      expect([denied.status, denied.body.code]).toEqual([403, 20002]);
    }
    const botMe = await request('GET', '/users/@me', { headers: bot(app.botToken) });
    expectSchema('UserPIIResponse', botMe.body);
    expect(botMe.body).toMatchObject({ id: app.id, bot: true });
  });
});

describe('client_credentials and app isolation', () => {
  it("gives the owner's token that manages this app's commands and no other app's", async () => {
    const answer = await token({
      grant_type: 'client_credentials',
      scope: 'identify applications.commands.update',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('refresh_token');
    expect(answer.body.scope).toBe('identify applications.commands.update');
    const headers = { ...bearer(answer.body.access_token), 'Content-Type': 'application/json' };
    const created = await request('POST', `/applications/${app.id}/commands`, {
      headers,
      body: JSON.stringify({ name: 'hello', description: 'Hi' }),
    });
    expect(created.status).toBe(201);
    const other = await request('GET', `/applications/${world.application.id}/commands`, { headers });
    expect([other.status, other.body.code]).toEqual([403, 20012]);
    const me = await request('GET', '/users/@me', { headers });
    expect(me.body.id).toBe(world.user.id);
    // Another client cannot use this app's refresh token or revoke its tokens.
    const user = await userToken('identify');
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: user.refresh_token }, ownerless)).body.error,
    ).toBe('invalid_grant');
    const foreignRevoke = await request('POST', '/oauth2/token/revoke', {
      headers: { ...FORM, Authorization: basic(ownerless.id, ownerless.secret) },
      body: new URLSearchParams({ token: user.access_token }).toString(),
    });
    expect(foreignRevoke.status).toBe(200);
    expect((await request('GET', '/users/@me', { headers: bearer(user.access_token) })).status).toBe(200);
  });
});

describe('deauthorization', () => {
  it("removing a user's authorization kills its tokens", async () => {
    const { access_token } = await userToken('identify');
    expect((await stack.admin('DELETE', `/admin/users/${alice.id}/authorizations/${app.id}`)).status).toBe(
      204,
    );
    expect((await request('GET', '/users/@me', { headers: bearer(access_token) })).status).toBe(401);
    expect((await stack.admin('DELETE', `/admin/users/${alice.id}/authorizations/1`)).status).toBe(404);
  });

  it('spends the codes not exchanged yet', async () => {
    const code = await authorize('identify');
    expect((await stack.admin('DELETE', `/admin/users/${alice.id}/authorizations/${app.id}`)).status).toBe(
      204,
    );
    const answer = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect([answer.status, answer.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('removing the bot from a guild uninstalls the app there', async () => {
    const guild = (
      await stack.admin('POST', '/admin/guilds', { name: 'Temp Guild', owner_id: world.user.id })
    ).body;
    expect(
      (
        await stack.admin('POST', '/admin/oauth2/authorize', {
          client_id: app.id,
          user_id: world.user.id,
          guild_id: guild.id,
          scope: 'bot',
        })
      ).status,
    ).toBe(200);
    const path = `/applications/${app.id}/guilds/${guild.id}/commands`;
    expect((await request('GET', path, { headers: bot(app.botToken) })).status).toBe(200);
    expect((await stack.admin('DELETE', `/admin/guilds/${guild.id}/members/${app.id}`)).status).toBe(204);
    const after = await request('GET', path, { headers: bot(app.botToken) });
    expect([after.status, after.body.code]).toEqual([403, 50001]);
    expect((await request('GET', '/users/@me/guilds', { headers: bot(app.botToken) })).body).toEqual([]);
  });
});

it('leaves no raw token, code or secret in the database', async () => {
  const { postgresUrl } = await findTestServers();
  const admin = new Client({ connectionString: postgresUrl });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE $1`,
    [`acs_test_${process.pid}_%`],
  );
  await admin.end();
  expect(rows).toHaveLength(1);
  const url = new URL(postgresUrl);
  url.pathname = `/${rows[0]!.datname}`;
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const { rows: tables } = await db.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    let dump = '';
    for (const t of tables) {
      const { rows: data } = await db.query<{ row: string }>(
        `SELECT row_to_json(x)::text AS row FROM "${t.table_schema}"."${t.table_name}" x`,
      );
      dump += data.map((r) => r.row).join('\n');
    }
    const seen = secrets.filter((s) => typeof s === 'string' && s.length >= 20);
    expect(seen.length).toBeGreaterThan(30);
    for (const secret of seen) expect(dump).not.toContain(secret);
  } finally {
    await db.end();
  }
});
