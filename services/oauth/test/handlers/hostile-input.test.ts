import { OAuth2Error } from '@acs/discord-errors';
import { longestBigIntText } from '@acs/testing';
import {
  createApp,
  createOAuthTestEnv,
  createUser,
  discordErrorOf,
  dumpOAuthTables,
  type OAuthTestEnv,
} from '../support/oauth-test-env';

// The handlers fed ids a bigint cannot hold, U+0000 and megabyte-long numbers, as any
// caller (not only api-gateway) could send them: 4xx answers, nothing stored.

let env: OAuthTestEnv;
let app: { id: string; secret: string };
let user: string;

const TOO_LARGE = ['9223372036854775808', '18446744073709551615'];
const MEGABYTE_OF_NINES = '9'.repeat(1_000_000);

beforeAll(async () => {
  env = await createOAuthTestEnv();
  user = (await createUser(env.handlers, { username: 'alice' })).id as string;
  const made = await createApp(env.handlers, {
    name: 'Game',
    redirect_uris: ['https://app.example/callback'],
    owner_id: user,
  });
  app = { id: made.id as string, secret: made.client_secret as string };
});
afterAll(() => env.close());

/** The inner codes at `field` of the 50035 answer a call rejects with. */
async function codesAt(call: Promise<unknown>, path: (string | number)[]): Promise<string[]> {
  const error = await discordErrorOf(call);
  expect(error.code).toBe(50035);
  let node: unknown = error.errors;
  for (const segment of path) node = (node as Record<string, unknown> | undefined)?.[String(segment)];
  return ((node as { _errors?: { code: string }[] } | undefined)?._errors ?? []).map((e) => e.code);
}

describe('the token endpoint', () => {
  it.each(TOO_LARGE)('answers client_id %s with 401 invalid_client, as any unknown client', async (id) => {
    for (const call of [
      () =>
        env.handlers.ExchangeToken({
          params: { grant_type: 'client_credentials', scope: 'identify' },
          client_id: id,
          client_secret: 'x',
          auth_method: 'CLIENT_AUTH_METHOD_POST',
          issuer: '',
        }),
      () =>
        env.handlers.RevokeToken({
          token: 't',
          token_type_hint: '',
          client_id: id,
          client_secret: 'x',
          auth_method: 'CLIENT_AUTH_METHOD_POST',
        }),
    ]) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OAuth2Error);
      expect((error as OAuth2Error).httpStatus).toBe(401);
      expect((error as OAuth2Error).error).toBe('invalid_client');
    }
  });
});

describe('hostile input', () => {
  it('is refused with 50035 at the field and stores nothing', async () => {
    const before = await dumpOAuthTables(env.pool);
    for (const id of TOO_LARGE) {
      expect(await codesAt(env.handlers.GetUser({ user_id: id }), ['user_id'])).toEqual(['NUMBER_TYPE_MAX']);
      expect(await codesAt(env.handlers.CreateSession({ user_id: id }), ['user_id'])).toEqual([
        'NUMBER_TYPE_MAX',
      ]);
      expect(await codesAt(env.handlers.ResetBotToken({ application_id: id }), ['application_id'])).toEqual([
        'NUMBER_TYPE_MAX',
      ]);
      expect(
        await codesAt(env.handlers.UpdateApplication({ application_id: id, body_json: '{}' }), [
          'application_id',
        ]),
      ).toEqual(['NUMBER_TYPE_MAX']);
      expect(
        await codesAt(env.handlers.RemoveAuthorization({ application_id: app.id, user_id: id }), ['user_id']),
      ).toEqual(['NUMBER_TYPE_MAX']);
      expect(
        await codesAt(env.handlers.GetInstallation({ application_id: app.id, guild_id: id }), ['guild_id']),
      ).toEqual(['NUMBER_TYPE_MAX']);
      for (const field of ['client_id', 'user_id', 'guild_id']) {
        const body = { client_id: app.id, user_id: user, scope: 'identify', [field]: id };
        expect(await codesAt(env.handlers.Authorize({ body_json: JSON.stringify(body) }), [field])).toEqual([
          'NUMBER_TYPE_MAX',
        ]);
      }
      expect(
        await codesAt(
          env.handlers.CreateApplication({ body_json: JSON.stringify({ name: 'App', owner_id: id }) }),
          ['owner_id'],
        ),
      ).toEqual(['NUMBER_TYPE_MAX']);
    }

    const authorize = {
      client_id: app.id,
      user_id: user,
      scope: 'bot',
      guild_id: '1',
      permissions: MEGABYTE_OF_NINES,
    };
    // The cost the handler must not pay is converting the digits to a BigInt (100-200 ms);
    // it converts at most the 20 digits of a 64-bit set.
    const longest = await longestBigIntText(async () => {
      expect(
        await codesAt(env.handlers.Authorize({ body_json: JSON.stringify(authorize) }), ['permissions']),
      ).toEqual(['NUMBER_TYPE_MAX']);
    });
    expect(longest).toBeLessThanOrEqual(20);

    const NUL = ['STRING_TYPE_NUL_CHARACTER'];
    const create = (body: object) => env.handlers.CreateApplication({ body_json: JSON.stringify(body) });
    expect(await codesAt(create({ name: 'A\u0000pp' }), ['name'])).toEqual(NUL);
    expect(
      await codesAt(create({ name: 'App', redirect_uris: ['https://a.example/\u0000'] }), [
        'redirect_uris',
        0,
      ]),
    ).toEqual(NUL);
    expect(
      await codesAt(
        env.handlers.UpdateApplication({
          application_id: app.id,
          body_json: JSON.stringify({ name: '\u0000x' }),
        }),
        ['name'],
      ),
    ).toEqual(NUL);
    expect(
      await codesAt(env.handlers.CreateUser({ body_json: JSON.stringify({ username: 'a\u0000b' }) }), [
        'username',
      ]),
    ).toEqual(NUL);
    expect(
      await codesAt(
        env.handlers.CreateConnection({
          user_id: user,
          body_json: JSON.stringify({ type: 'github', id: '1', name: 'n\u0000' }),
        }),
        ['name'],
      ),
    ).toEqual(NUL);
    expect(
      await codesAt(
        env.handlers.Authorize({
          body_json: JSON.stringify({
            client_id: app.id,
            user_id: user,
            scope: 'identify',
            state: 's\u0000',
          }),
        }),
        ['state'],
      ),
    ).toEqual(NUL);
    const current = (body: object) =>
      env.handlers.UpdateCurrentApplication({ application_id: app.id, body_json: JSON.stringify(body) });
    expect(await codesAt(current({ description: 'd\u0000' }), ['description'])).toEqual(NUL);
    expect(await codesAt(current({ tags: ['ok', 't\u0000'] }), ['tags', 1])).toEqual(NUL);
    expect(
      await codesAt(current({ install_params: { scopes: ['bot'], permissions: MEGABYTE_OF_NINES } }), [
        'install_params',
        'permissions',
      ]),
    ).toEqual(['NUMBER_TYPE_MAX']);
    expect(
      await codesAt(
        env.handlers.UpdateCurrentApplication({ application_id: TOO_LARGE[0] ?? '', body_json: '{}' }),
        ['application_id'],
      ),
    ).toEqual(['NUMBER_TYPE_MAX']);
    expect(await dumpOAuthTables(env.pool)).toEqual(before);
  });
});
