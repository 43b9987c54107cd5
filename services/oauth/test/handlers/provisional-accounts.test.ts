import {
  createApp,
  createOAuthTestEnv,
  createUser,
  discordErrorOf,
  type OAuthTestEnv,
} from '../support/oauth-test-env';

// The provisional-account RPCs over a real database: one account per identity (also
// when first calls race), tokens that resolve as Bearer tokens, 530010 for a full account.

let env: OAuthTestEnv;
let appId = '';
beforeAll(async () => {
  env = await createOAuthTestEnv();
  appId = (await createApp(env.handlers, { name: 'Game' })).id as string;
});
afterAll(() => env.close());

async function botToken(body: object, applicationId = appId): Promise<Record<string, unknown>> {
  const answer = await env.handlers.IssueBotProvisionalToken({
    application_id: applicationId,
    body_json: JSON.stringify(body),
    issuer: 'https://acs.example',
  });
  return JSON.parse(answer.token_json as string) as Record<string, unknown>;
}

async function resolve(token: unknown) {
  return env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token: token as string });
}

describe('IssueBotProvisionalToken', () => {
  it('creates one account for concurrent first calls of one identity, and resolves each token to it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => botToken({ external_user_id: 'racer', preferred_global_name: 'R' })),
    );
    const principals = await Promise.all(answers.map((answer) => resolve(answer.access_token)));
    expect(new Set(principals.map((p) => p.user_id)).size).toBe(1);
    expect(principals[0]).toMatchObject({ application_id: appId, scopes: ['identify', 'sdk.social_layer'] });
    const { rows } = await env.pool.query(
      `SELECT count(*)::int AS n FROM "oauth"."user" WHERE provisional_application_id = $1`,
      [appId],
    );
    expect(rows[0].n).toBe(1);
    const user = await env.handlers.GetUser({ user_id: principals[0]!.user_id as string });
    expect(JSON.parse(user.public_user_json as string)).toMatchObject({
      global_name: 'R',
      public_flags: 1 << 23,
    });
  });

  it('refuses an identity of a full account with 530010, writing nothing', async () => {
    const full = await createUser(env.handlers, { username: 'full' });
    await env.pool.query(
      `INSERT INTO "oauth"."external_identity" (application_id, auth_type, external_user_id, user_id)
       VALUES ($1, 'DISCORD_BOT', 'merged', $2)`,
      [appId, full.id],
    );
    const before = await env.pool.query(`SELECT count(*)::int AS n FROM "oauth"."access_token"`);
    const error = await discordErrorOf(botToken({ external_user_id: 'merged' }));
    expect([error.httpStatus, error.code]).toEqual([400, 530010]);
    const after = await env.pool.query(`SELECT count(*)::int AS n FROM "oauth"."access_token"`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses a malformed application id and body with 50035', async () => {
    for (const call of [
      botToken({ external_user_id: 'x' }, '18446744073709551616'),
      botToken({ external_user_id: 'x'.repeat(1025) }),
    ]) {
      expect((await discordErrorOf(call)).code).toBe(50035);
    }
  });
});

describe('RenameProvisionalAccount', () => {
  it("renames a provisional account for its application's token, and no other account", async () => {
    const answer = await botToken({ external_user_id: 'renamed', preferred_global_name: 'Old' });
    const principal = await resolve(answer.access_token);
    const rename = (userId: string, applicationId: string, body: object) =>
      env.handlers.RenameProvisionalAccount({
        application_id: applicationId,
        user_id: userId,
        body_json: JSON.stringify(body),
      });
    const renamed = await rename(principal.user_id as string, appId, { global_name: 'New' });
    expect(JSON.parse(renamed.user_json as string)).toMatchObject({
      id: principal.user_id,
      global_name: 'New',
    });
    const stored = await env.handlers.GetUser({ user_id: principal.user_id as string });
    expect(JSON.parse(stored.public_user_json as string).global_name).toBe('New');

    const otherApp = (await createApp(env.handlers, { name: 'Other' })).id as string;
    const full = await createUser(env.handlers, { username: 'person' });
    for (const [userId, applicationId] of [
      [principal.user_id as string, otherApp],
      [full.id as string, appId],
    ]) {
      const error = await discordErrorOf(rename(userId!, applicationId!, { global_name: 'Hijack' }));
      expect([error.httpStatus, error.code]).toEqual([403, 50001]);
    }
    expect((await discordErrorOf(rename(principal.user_id as string, appId, { global_name: '' }))).code).toBe(
      50035,
    );
    const after = await env.handlers.GetUser({ user_id: principal.user_id as string });
    expect(JSON.parse(after.public_user_json as string).global_name).toBe('New');
  });
});
