import { hashSecret } from '../../src/domain/hash-secret';
import {
  createApp,
  createOAuthTestEnv,
  createUser,
  discordErrorOf,
  type OAuthTestEnv,
} from '../support/oauth-test-env';

let env: OAuthTestEnv;
beforeAll(async () => {
  env = await createOAuthTestEnv();
});
afterAll(() => env.close());

const expectUnauthorized = async (promise: Promise<unknown>) => {
  const error = await discordErrorOf(promise);
  expect([error.httpStatus, error.toBody()]).toEqual([401, { code: 0, message: '401: Unauthorized' }]);
};

describe('users', () => {
  it('creates a user shown as GET /users/@me shows them', async () => {
    const user = await createUser(env.handlers, {
      username: 'alice',
      global_name: 'Alice',
      locale: 'fr',
      email: 'alice@example.com',
      premium_type: 2,
    });
    expect(user).toEqual({
      id: expect.stringMatching(/^\d{17,20}$/),
      username: 'alice',
      avatar: null,
      discriminator: '0',
      public_flags: 0,
      flags: 0,
      banner: null,
      accent_color: null,
      global_name: 'Alice',
      avatar_decoration_data: null,
      collectibles: null,
      primary_guild: null,
      bot: false,
      mfa_enabled: false,
      locale: 'fr',
      premium_type: 2,
      email: 'alice@example.com',
      verified: true,
    });
    const fetched = await env.handlers.GetUser({ user_id: user.id as string });
    expect(JSON.parse(fetched.user_json as string)).toEqual(user);
    expect(fetched.locale).toBe('fr');
  });

  it('defaults to en-US, no email, unverified', async () => {
    const user = await createUser(env.handlers, { username: 'bob' });
    expect(user).toMatchObject({
      locale: 'en-US',
      email: null,
      verified: false,
      premium_type: 0,
      global_name: null,
    });
  });

  it('lists many users at once as others see them, in the order asked, without the unknown ones', async () => {
    const a = await createUser(env.handlers, { username: 'listed-a', email: 'a@example.com' });
    const b = await createUser(env.handlers, { username: 'listed-b' });
    const answer = await env.handlers.ListUsers({
      user_ids: [b.id as string, '123456789012345678', a.id as string, b.id as string],
      every: false,
      after: '',
    });
    const publicOf = async (id: unknown) =>
      JSON.parse((await env.handlers.GetUser({ user_id: id as string })).public_user_json as string);
    expect(JSON.parse(answer.users_json as string)).toEqual([await publicOf(b.id), await publicOf(a.id)]);
    const tooMany = await discordErrorOf(
      env.handlers.ListUsers({
        user_ids: Array.from({ length: 1001 }, (_, i) => String(i + 1)),
        every: false,
        after: '',
      }),
    );
    expect(Object.keys(tooMany.errors ?? {})).toEqual(['user_ids']);
    const badId = await discordErrorOf(
      env.handlers.ListUsers({ user_ids: ['18446744073709551616'], every: false, after: '' }),
    );
    expect(Object.keys(badId.errors ?? {})).toEqual(['user_ids']);
  });

  it('lists every user by id with `every`, page by page after `after`, ignoring user_ids', async () => {
    const a = await createUser(env.handlers, { username: 'every-a' });
    const b = await createUser(env.handlers, { username: 'every-b' });
    const ids = (json: unknown) => (JSON.parse(json as string) as { id: string }[]).map((u) => u.id);
    const all = ids((await env.handlers.ListUsers({ user_ids: [], every: true, after: '' })).users_json);
    expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(all).toEqual([...all].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1)));
    const later = ids(
      (await env.handlers.ListUsers({ user_ids: [b.id as string], every: true, after: a.id as string }))
        .users_json,
    );
    expect(later).toEqual(all.filter((id) => BigInt(id) > BigInt(a.id as string)));
    const bad = await discordErrorOf(env.handlers.ListUsers({ user_ids: [], every: true, after: 'x' }));
    expect(Object.keys(bad.errors ?? {})).toEqual(['after']);
  });

  it('shows a user to others without e-mail, locale, MFA or premium fields, and whole to the admin API', async () => {
    const user = await createUser(env.handlers, {
      username: 'private',
      email: 'p@example.com',
      locale: 'fr',
    });
    const answer = await env.handlers.GetUser({ user_id: user.id as string });
    const whole = JSON.parse(answer.user_json as string);
    expect(whole).toMatchObject({ email: 'p@example.com', verified: true, locale: 'fr', mfa_enabled: false });
    const shown = JSON.parse(answer.public_user_json as string);
    for (const field of ['email', 'verified', 'locale', 'mfa_enabled', 'premium_type', 'bot'])
      expect(shown).not.toHaveProperty(field);
    expect(shown).toMatchObject({ id: user.id, username: 'private', discriminator: '0' });
  });

  it('answers 404 / 10013 for an unknown user and 50035 for a bad body', async () => {
    const unknown = await discordErrorOf(env.handlers.GetUser({ user_id: '123456789012345678' }));
    expect([unknown.httpStatus, unknown.code, unknown.message]).toEqual([404, 10013, 'Unknown User']);
    const bad = await discordErrorOf(
      env.handlers.CreateUser({ body_json: '{"username":"x","locale":"xx"}' }),
    );
    expect(Object.keys(bad.errors ?? {})).toEqual(['username', 'locale']);
    const notJson = await discordErrorOf(env.handlers.CreateUser({ body_json: '{' }));
    expect(notJson.code).toBe(50109);
  });
});

describe('ResolveToken', () => {
  it('resolves a bot token to its application', async () => {
    const app = await createApp(env.handlers, { name: 'Resolver', flags: 1 << 17 });
    expect(
      await env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BOT', token: app.bot_token as string }),
    ).toEqual({
      kind: 'PRINCIPAL_KIND_BOT',
      application_id: app.id,
      user_id: app.id,
      scopes: [],
      application_flags: 131072,
      user_locale: '',
      cache_seconds: 60,
    });
  });

  it('resolves a session token to its user with their locale', async () => {
    const user = await createUser(env.handlers, { username: 'session-user', locale: 'ja' });
    const { token } = await env.handlers.CreateSession({ user_id: user.id as string });
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(
      await env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_USER_SESSION', token: token as string }),
    ).toEqual({
      kind: 'PRINCIPAL_KIND_USER_SESSION',
      application_id: '',
      user_id: user.id,
      scopes: [],
      application_flags: 0,
      user_locale: 'ja',
      cache_seconds: 60,
    });
    const second = await env.handlers.CreateSession({ user_id: user.id as string });
    expect(second.token).not.toBe(token);
  });

  it('gives sessions only to existing people', async () => {
    const unknown = await discordErrorOf(env.handlers.CreateSession({ user_id: '123456789012345678' }));
    expect(unknown.code).toBe(10013);
    const app = await createApp(env.handlers, { name: 'No Session' });
    expect((await discordErrorOf(env.handlers.CreateSession({ user_id: app.id as string }))).code).toBe(
      10013,
    );
  });

  it('refuses a token of one kind presented as another', async () => {
    const user = await createUser(env.handlers, { username: 'mixer' });
    const { token: session } = await env.handlers.CreateSession({ user_id: user.id as string });
    const app = await createApp(env.handlers, { name: 'Mixer' });
    await expectUnauthorized(
      env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BOT', token: session as string }),
    );
    await expectUnauthorized(
      env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_USER_SESSION', token: app.bot_token as string }),
    );
    await expectUnauthorized(
      env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token: app.bot_token as string }),
    );
    await expectUnauthorized(
      env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_UNSPECIFIED', token: app.bot_token as string }),
    );
  });

  it('refuses unknown, empty and oversized tokens', async () => {
    const app = await createApp(env.handlers, { name: 'Unknowns' });
    const token = app.bot_token as string;
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const candidate of [tampered, '', 'x'.repeat(10_000), 'garbage']) {
      await expectUnauthorized(env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BOT', token: candidate }));
      await expectUnauthorized(
        env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_USER_SESSION', token: candidate }),
      );
    }
  });

  describe('bearer tokens', () => {
    let applicationId: bigint;
    let userId: bigint;
    const grant = async (token: string, expiresInMs: number, revoked = false) => {
      await env.prisma.accessToken.create({
        data: {
          tokenHash: hashSecret(token),
          applicationId,
          userId,
          scopes: ['identify', 'applications.commands.permissions.update'],
          expiresAt: new Date(env.clock.now.getTime() + expiresInMs),
          revokedAt: revoked ? env.clock.now : null,
        },
      });
    };

    beforeAll(async () => {
      const app = await createApp(env.handlers, { name: 'Bearer App', flags: 64 });
      const user = await createUser(env.handlers, { username: 'bearer-user', locale: 'de' });
      applicationId = BigInt(app.id as string);
      userId = BigInt(user.id as string);
    });

    it('resolves a live token, cached at most 60 s', async () => {
      await grant('live-access-token-0000000000', 7 * 24 * 3600 * 1000);
      expect(
        await env.handlers.ResolveToken({
          kind: 'PRINCIPAL_KIND_BEARER',
          token: 'live-access-token-0000000000',
        }),
      ).toEqual({
        kind: 'PRINCIPAL_KIND_BEARER',
        application_id: applicationId.toString(),
        user_id: userId.toString(),
        scopes: ['identify', 'applications.commands.permissions.update'],
        application_flags: 64,
        user_locale: 'de',
        cache_seconds: 60,
      });
    });

    it('caches a token that is about to expire no longer than it lives', async () => {
      await grant('short-access-token-000000000', 12_500);
      const principal = await env.handlers.ResolveToken({
        kind: 'PRINCIPAL_KIND_BEARER',
        token: 'short-access-token-000000000',
      });
      expect(principal.cache_seconds).toBe(12);
    });

    it('refuses expired and revoked tokens', async () => {
      await grant('expired-access-token-0000000', -1);
      await grant('revoked-access-token-0000000', 3_600_000, true);
      await expectUnauthorized(
        env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token: 'expired-access-token-0000000' }),
      );
      await expectUnauthorized(
        env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token: 'revoked-access-token-0000000' }),
      );
    });

    it('stops resolving a token once the clock passes its expiry', async () => {
      await grant('ageing-access-token-00000000', 30_000);
      const resolve = () =>
        env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token: 'ageing-access-token-00000000' });
      expect((await resolve()).cache_seconds).toBe(30);
      const start = env.clock.now;
      env.clock.now = new Date(start.getTime() + 31_000);
      try {
        await expectUnauthorized(resolve());
      } finally {
        env.clock.now = start;
      }
    });
  });
});
