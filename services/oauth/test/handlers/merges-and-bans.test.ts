import {
  createApp,
  createOAuthTestEnv,
  createUser,
  discordErrorOf,
  dumpOAuthTables,
  type OAuthTestEnv,
} from '../support/oauth-test-env';

// Merging, unmerging and banning over a real database (facts A.4, A.4b, A.5): a code
// exchange with an external credential moves a provisional account's identity to the full
// account; a refused merge writes nothing (the code included); unmerges and bans give the
// identity a new provisional account and end the full account's tokens.

const REDIRECT = 'https://game.example/cb';

let env: OAuthTestEnv;
let app: { id: string; secret: string };
beforeAll(async () => {
  env = await createOAuthTestEnv();
  const json = await createApp(env.handlers, { name: 'Game', redirect_uris: [REDIRECT] });
  app = { id: json.id as string, secret: json.client_secret as string };
});
afterAll(() => env.close());

async function botToken(externalUserId: string, name?: string): Promise<{ token: string; userId: string }> {
  const answer = await env.handlers.IssueBotProvisionalToken({
    application_id: app.id,
    body_json: JSON.stringify({ external_user_id: externalUserId, preferred_global_name: name ?? null }),
    issuer: '',
  });
  const token = (JSON.parse(answer.token_json as string) as { access_token: string }).access_token;
  return { token, userId: (await resolve(token)).user_id as string };
}

function resolve(token: string) {
  return env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token });
}

async function code(userId: string): Promise<string> {
  const answer = await env.handlers.Authorize({
    body_json: JSON.stringify({
      client_id: app.id,
      user_id: userId,
      scope: 'identify',
      redirect_uri: REDIRECT,
    }),
  });
  return answer.code as string;
}

function exchange(value: string, merge?: { type: string; token: string }) {
  return env.handlers.ExchangeToken({
    params: {
      grant_type: 'authorization_code',
      code: value,
      redirect_uri: REDIRECT,
      ...(merge && { external_auth_type: merge.type, external_auth_token: merge.token }),
    },
    client_id: app.id,
    client_secret: app.secret,
    auth_method: 'CLIENT_AUTH_METHOD_POST',
    issuer: '',
  });
}

const bot = (token: string) => ({ type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token });

async function ownerOf(externalUserId: string): Promise<string> {
  const { rows } = await env.pool.query(
    `SELECT user_id::text AS id FROM "oauth"."external_identity"
      WHERE application_id = $1 AND auth_type = 'DISCORD_BOT' AND external_user_id = $2`,
    [app.id, externalUserId],
  );
  return rows[0]?.id as string;
}

async function outbox(name: string): Promise<Record<string, unknown>[]> {
  const { rows } = await env.pool.query(
    `SELECT payload FROM "oauth"."outbox" WHERE subject = $1 OR subject LIKE '%.' || $1 ORDER BY seq`,
    [name],
  );
  return rows.map((row) => (row.payload as { data: Record<string, unknown> }).data);
}

describe('merging', () => {
  it('moves the identity to the full account, revokes the provisional tokens and announces it', async () => {
    const dana = (await createUser(env.handlers, { username: 'dana' })).id as string;
    const player = await botToken('merge-1', 'Ann');
    const answer = await exchange(await code(dana), bot(player.token));
    expect(answer.access_token).toBeTruthy();
    expect((await resolve(answer.access_token as string)).user_id).toBe(dana);
    expect(await ownerOf('merge-1')).toBe(dana);
    await expect(resolve(player.token)).rejects.toMatchObject({ httpStatus: 401 });
    // The identity is a full account's now: the bot endpoint refuses it.
    expect((await discordErrorOf(botToken('merge-1'))).code).toBe(530010);
    expect(await outbox('oauth.user.merged')).toContainEqual({
      merge_operation_id: expect.stringMatching(/^\d+$/),
      application_id: app.id,
      source_user_id: player.userId,
      destination_user_id: dana,
    });
  });

  it('refuses with the facts’ codes, writing nothing and leaving the code usable', async () => {
    const erin = (await createUser(env.handlers, { username: 'erin' })).id as string;
    const first = await botToken('merge-2');
    await exchange(await code(erin), bot(first.token));
    const second = await botToken('merge-3');
    const unspent = await code(erin);
    const before = await dumpOAuthTables(env.pool);
    const refusals: [{ type: string; token: string }, number][] = [
      [bot(second.token), 530023],
      [bot('not-a-token'), 50025],
      [{ type: 'OIDC', token: 'a.b.c' }, 50025],
      [{ type: 'STEAM_SESSION_TICKET', token: 'x'.repeat(10241) }, 50025],
      [{ type: 'NOT_A_TYPE', token: 't' }, 50025],
    ];
    for (const [merge, expected] of refusals) {
      const error = await discordErrorOf(exchange(unspent, merge));
      expect([merge.type, error.code]).toEqual([merge.type, expected]);
    }
    expect(await dumpOAuthTables(env.pool)).toBe(before);
    // A full account's own token is no provisional source: 530014.
    const frank = (await createUser(env.handlers, { username: 'frank' })).id as string;
    const frankToken = (await exchange(await code(frank))).access_token as string;
    const gina = (await createUser(env.handlers, { username: 'gina' })).id as string;
    expect((await discordErrorOf(exchange(await code(gina), bot(frankToken)))).code).toBe(530014);
    // The unspent code still works without a merge.
    expect((await exchange(unspent)).access_token).toBeTruthy();
  });
});

describe('unmerging', () => {
  it('gives the identity a new provisional account and ends the full account’s tokens (bot flavour)', async () => {
    const hal = (await createUser(env.handlers, { username: 'hal', global_name: 'Hal' })).id as string;
    const player = await botToken('unmerge-1');
    const full = await exchange(await code(hal), bot(player.token));
    await env.handlers.UnmergeBotProvisionalAccount({
      application_id: app.id,
      body_json: JSON.stringify({ external_user_id: 'unmerge-1' }),
    });
    await expect(resolve(full.access_token as string)).rejects.toMatchObject({ httpStatus: 401 });
    const again = await botToken('unmerge-1');
    expect(again.userId).not.toBe(hal);
    expect(again.userId).not.toBe(player.userId);
    const user = JSON.parse(
      (await env.handlers.GetUser({ user_id: again.userId })).public_user_json as string,
    );
    expect(user).toMatchObject({ global_name: 'Hal', public_flags: 1 << 23 });
    expect(await outbox('oauth.application.deauthorized')).toContainEqual({
      application_id: app.id,
      user_id: hal,
    });
    // lobby copies the full account's lobby memberships of the app to the new account.
    expect(await outbox('oauth.user.unmerged')).toContainEqual({
      application_id: app.id,
      full_user_id: hal,
      provisional_user_id: again.userId,
    });
    // Unmerging it again: it is provisional now (50229); an unknown identity is 404.
    const unmerge = (id: string) =>
      env.handlers.UnmergeBotProvisionalAccount({
        application_id: app.id,
        body_json: JSON.stringify({ external_user_id: id }),
      });
    expect((await discordErrorOf(unmerge('unmerge-1'))).code).toBe(50229);
    const unknown = await discordErrorOf(unmerge('nobody'));
    expect([unknown.httpStatus, unknown.code]).toEqual([404, 10013]);
  });

  it('unmerges with client credentials and a test issuer’s token, refusing bad clients with 530007', async () => {
    await env.handlers.PutIdentityProvider({
      application_id: app.id,
      external_auth_type: 'STEAM_SESSION_TICKET',
      body_json: '{}',
    });
    const mint = async () =>
      JSON.parse(
        (
          await env.handlers.CreateTestExternalToken({
            application_id: app.id,
            body_json: JSON.stringify({
              external_auth_type: 'STEAM_SESSION_TICKET',
              external_user_id: 'steam-9',
            }),
          })
        ).token_json as string,
      ).external_auth_token as string;
    const ivy = (await createUser(env.handlers, { username: 'ivy' })).id as string;
    await env.handlers.ExchangeExternalCredentials({
      body_json: JSON.stringify({
        client_id: app.id,
        client_secret: app.secret,
        external_auth_type: 'STEAM_SESSION_TICKET',
        external_auth_token: await mint(),
      }),
      issuer: '',
    });
    const full = await exchange(await code(ivy), { type: 'STEAM_SESSION_TICKET', token: await mint() });
    expect((await resolve(full.access_token as string)).user_id).toBe(ivy);
    const body = async (secret: string) =>
      JSON.stringify({
        client_id: app.id,
        client_secret: secret,
        external_auth_type: 'STEAM_SESSION_TICKET',
        external_auth_token: await mint(),
      });
    expect(
      (await discordErrorOf(env.handlers.UnmergeProvisionalAccount({ body_json: await body('wrong') }))).code,
    ).toBe(530007);
    await env.handlers.UnmergeProvisionalAccount({ body_json: await body(app.secret) });
    const { rows } = await env.pool.query(
      `SELECT u.id::text, u.provisional_application_id::text AS owner FROM "oauth"."external_identity" i
         JOIN "oauth"."user" u ON u.id = i.user_id
        WHERE i.application_id = $1 AND i.external_user_id = 'steam-9'`,
      [app.id],
    );
    expect(rows).toEqual([{ id: expect.not.stringMatching(ivy), owner: app.id }]);
    // The full account's tokens for the app die at once, and lobby hears of the new account.
    await expect(resolve(full.access_token as string)).rejects.toMatchObject({ httpStatus: 401 });
    expect(await outbox('oauth.user.unmerged')).toContainEqual({
      application_id: app.id,
      full_user_id: ivy,
      provisional_user_id: (rows[0] as { id: string }).id,
    });
  });
});

describe('bans', () => {
  it('end every token and session at once and restrict the unmerged account until the ban lifts', async () => {
    const jo = (await createUser(env.handlers, { username: 'jo' })).id as string;
    const player = await botToken('banned-1');
    const full = await exchange(await code(jo), bot(player.token));
    const session = (await env.handlers.CreateSession({ user_id: jo })).token as string;
    const until = new Date(env.clock.now.getTime() + 3600_000).toISOString();
    const ban = await env.handlers.BanUser({
      user_id: jo,
      body_json: JSON.stringify({ reason: 'cheating', until }),
    });
    expect(JSON.parse(ban.ban_json as string)).toEqual({ user_id: jo, reason: 'cheating', until });
    await expect(resolve(full.access_token as string)).rejects.toMatchObject({ httpStatus: 401 });
    await expect(
      env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_USER_SESSION', token: session }),
    ).rejects.toMatchObject({ httpStatus: 401 });
    // The user's gateway sessions end on every dispatcher replica (4004).
    expect(await outbox('oauth.user.banned')).toContainEqual({ user_id: jo });
    // The refresh token died with the grant: invalid_grant.
    await expect(
      env.handlers.ExchangeToken({
        params: { grant_type: 'refresh_token', refresh_token: full.refresh_token as string },
        client_id: app.id,
        client_secret: app.secret,
        auth_method: 'CLIENT_AUTH_METHOD_POST',
        issuer: '',
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // The identity has a new, restricted provisional account: its merge fails with 530017.
    const restricted = await botToken('banned-1');
    expect(restricted.userId).not.toBe(jo);
    const kim = (await createUser(env.handlers, { username: 'kim' })).id as string;
    const kimCode = await code(kim);
    expect((await discordErrorOf(exchange(kimCode, bot(restricted.token)))).code).toBe(530017);
    // Once the ban ends (lifted here; a temporary one also ends by itself) the merge works.
    await env.handlers.UnbanUser({ user_id: jo });
    expect((await exchange(kimCode, bot(restricted.token))).access_token).toBeTruthy();
  });

  it('lets a temporary ban end by itself, and answers bad input with 50035 / 10013', async () => {
    const lee = (await createUser(env.handlers, { username: 'lee' })).id as string;
    const player = await botToken('banned-2');
    await exchange(await code(lee), bot(player.token));
    const until = new Date(env.clock.now.getTime() + 60_000).toISOString();
    await env.handlers.BanUser({ user_id: lee, body_json: JSON.stringify({ until }) });
    const restricted = await botToken('banned-2');
    const max = (await createUser(env.handlers, { username: 'max' })).id as string;
    expect((await discordErrorOf(exchange(await code(max), bot(restricted.token)))).code).toBe(530017);
    const saved = env.clock.now;
    env.clock.now = new Date(saved.getTime() + 61_000);
    try {
      const later = await code(max);
      expect((await exchange(later, bot(restricted.token))).access_token).toBeTruthy();
    } finally {
      env.clock.now = saved;
    }
    const before = await dumpOAuthTables(env.pool);
    for (const body of [
      '{"until":"yesterday"}',
      '{"until":"2000-01-01T00:00:00Z"}',
      '{"reason":5}',
      '[]',
      'nope',
    ]) {
      const error = await discordErrorOf(env.handlers.BanUser({ user_id: lee, body_json: body }));
      expect(error.httpStatus).toBe(400);
    }
    expect((await discordErrorOf(env.handlers.BanUser({ user_id: '1', body_json: '{}' }))).code).toBe(10013);
    expect(
      (await discordErrorOf(env.handlers.BanUser({ user_id: '18446744073709551616', body_json: '{}' }))).code,
    ).toBe(50035);
    expect((await discordErrorOf(env.handlers.UnbanUser({ user_id: '1' }))).code).toBe(10013);
    expect(await dumpOAuthTables(env.pool)).toBe(before);
  });
});
