import { pruneDeadCredentials } from '../../src/store/prune-dead-credentials';
import { createApp, createOAuthTestEnv, discordErrorOf, type OAuthTestEnv } from '../support/oauth-test-env';

// The External Credentials Exchange over a real database, with the admin's test issuer.

let env: OAuthTestEnv;
let app = { id: '', secret: '' };
let other = { id: '', secret: '' };
beforeAll(async () => {
  env = await createOAuthTestEnv();
  const created = await createApp(env.handlers, { name: 'Game' });
  app = { id: created.id as string, secret: created.client_secret as string };
  const second = await createApp(env.handlers, { name: 'Other' });
  other = { id: second.id as string, secret: second.client_secret as string };
  for (const id of [app.id, other.id]) {
    await env.handlers.PutIdentityProvider({
      application_id: id,
      external_auth_type: 'STEAM_SESSION_TICKET',
      body_json: '{}',
    });
  }
});
afterAll(() => env.close());

async function mint(
  applicationId: string,
  externalUserId: string,
  type = 'STEAM_SESSION_TICKET',
): Promise<string> {
  const answer = await env.handlers.CreateTestExternalToken({
    application_id: applicationId,
    body_json: JSON.stringify({ external_auth_type: type, external_user_id: externalUserId }),
  });
  return (JSON.parse(answer.token_json as string) as { external_auth_token: string }).external_auth_token;
}

async function exchange(body: object) {
  const answer = await env.handlers.ExchangeExternalCredentials({
    body_json: JSON.stringify(body),
    issuer: '',
  });
  return JSON.parse(answer.token_json as string) as Record<string, unknown>;
}

const steam = (token: string, client = app) => ({
  client_id: client.id,
  client_secret: client.secret,
  external_auth_type: 'STEAM_SESSION_TICKET',
  external_auth_token: token,
});

describe('the External Credentials Exchange with a test issuer', () => {
  it("gives the same identity's tokens the same account, and another identity another one", async () => {
    const first = await exchange(steam(await mint(app.id, 'steam-1')));
    const second = await exchange(steam(await mint(app.id, 'steam-1')));
    const third = await exchange(steam(await mint(app.id, 'steam-2')));
    const userOf = async (answer: Record<string, unknown>) =>
      (
        await env.handlers.ResolveToken({
          kind: 'PRINCIPAL_KIND_BEARER',
          token: answer.access_token as string,
        })
      ).user_id;
    expect(first).toMatchObject({ token_type: 'Bearer', expires_in: 604800 });
    expect(await userOf(first)).toBe(await userOf(second));
    expect(await userOf(third)).not.toBe(await userOf(first));
  });

  it('answers each bad credential with its code and writes nothing', async () => {
    const token = await mint(app.id, 'steam-3');
    const foreign = await mint(other.id, 'steam-3');
    const before = await env.pool.query(`SELECT count(*)::int AS n FROM "oauth"."user"`);
    const cases: [object, number][] = [
      [{ ...steam(token), client_secret: 'wrong' }, 530007],
      [{ ...steam(token), client_secret: null }, 530007],
      [steam(token, { id: '1300000000000000001', secret: 'x' }), 530007],
      [steam('not-a-token'), 530020],
      [steam(foreign), 530020],
      [{ ...steam(token), external_auth_type: 'APPLE_ID_TOKEN' }, 50035],
      [{ ...steam(token), external_auth_token: 'x'.repeat(10241) }, 50035],
      [{ ...steam(token), external_auth_type: 'NOPE' }, 50035],
    ];
    for (const [body, code] of cases) {
      expect([body, (await discordErrorOf(exchange(body))).code]).toEqual([body, code]);
    }
    const after = await env.pool.query(`SELECT count(*)::int AS n FROM "oauth"."user"`);
    expect(after.rows[0].n).toBe(before.rows[0].n);

    env.clock.now = new Date(Date.now() + 3601_000);
    try {
      expect((await discordErrorOf(exchange(steam(token)))).code).toBe(530001);
    } finally {
      env.clock.now = new Date();
    }
  });

  it('mints only for a configured type of a known application, and prunes expired tokens', async () => {
    expect((await discordErrorOf(mint(app.id, 'u', 'APPLE_ID_TOKEN'))).code).toBe(50035);
    expect((await discordErrorOf(mint('1300000000000000001', 'u'))).code).toBe(10002);
    const put = (type: string, body: string, id = app.id) =>
      env.handlers.PutIdentityProvider({ application_id: id, external_auth_type: type, body_json: body });
    expect((await discordErrorOf(put('OIDC', '{}'))).code).toBe(50035);
    expect((await discordErrorOf(put('STEAM_SESSION_TICKET', '{"issuer":"https://x.example"}'))).code).toBe(
      50035,
    );
    expect((await discordErrorOf(put('STEAM_SESSION_TICKET', '{}', '1300000000000000001'))).code).toBe(10002);
    expect(JSON.parse((await put('APPLE_ID_TOKEN', '{}')).provider_json as string)).toEqual({
      external_auth_type: 'APPLE_ID_TOKEN',
      issuer: null,
      test_issuer: true,
    });

    await pruneDeadCredentials(env.pool, new Date(Date.now() + 7200_000));
    const { rows } = await env.pool.query(`SELECT count(*)::int AS n FROM "oauth"."test_external_token"`);
    expect(rows[0].n).toBe(0);
  });
});
