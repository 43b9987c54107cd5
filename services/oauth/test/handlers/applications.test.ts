import { hashSecret } from '../../src/domain/hash-secret';
import {
  createApp,
  createOAuthTestEnv,
  createUser,
  discordErrorOf,
  dumpOAuthTables,
  type OAuthTestEnv,
} from '../support/oauth-test-env';

let env: OAuthTestEnv;
beforeAll(async () => {
  env = await createOAuthTestEnv();
});
afterAll(() => env.close());

describe('CreateApplication', () => {
  it('creates the application, its bot user and its credentials', async () => {
    const owner = await createUser(env.handlers, { username: 'owner' });
    const response = await env.handlers.CreateApplication({
      body_json: JSON.stringify({
        name: 'Demo App',
        flags: 1 << 17,
        integration_types: [0, 1],
        redirect_uris: ['https://app.example/cb'],
        event_webhooks_url: 'https://app.example/events',
        event_webhooks_types: ['APPLICATION_AUTHORIZED'],
        owner_id: owner.id,
      }),
    });
    const app = JSON.parse(response.application_json as string) as Record<string, unknown>;
    expect(response.application_id).toBe(app.id);
    expect(response.flags).toBe(131072);
    expect(app).toMatchObject({
      name: 'Demo App',
      icon: null,
      description: '',
      summary: '',
      type: null,
      bot_public: true,
      bot_require_code_grant: false,
      flags: 131072,
      redirect_uris: ['https://app.example/cb'],
      interactions_endpoint_url: null,
      event_webhooks_url: 'https://app.example/events',
      event_webhooks_status: 2,
      event_webhooks_types: ['APPLICATION_AUTHORIZED'],
      integration_types_config: { '0': {}, '1': {} },
      team: null,
      approximate_guild_count: 0,
      owner: { id: owner.id, username: 'owner', discriminator: '0' },
    });
    expect(app.verify_key).toMatch(/^[0-9a-f]{64}$/);
    expect(app.bot).toEqual({
      id: app.id,
      username: 'Demo App',
      avatar: null,
      discriminator: '0000',
      public_flags: 0,
      flags: 0,
      bot: true,
      banner: null,
      accent_color: null,
      global_name: null,
      avatar_decoration_data: null,
      collectibles: null,
      primary_guild: null,
    });
    const token = app.bot_token as string;
    expect(Buffer.from(token.split('.')[0] ?? '', 'base64').toString()).toBe(app.id);
    expect(app.client_secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('shows the minimal application with its defaults and no owner', async () => {
    const app = await createApp(env.handlers, { name: 'Bare' });
    expect(app).toMatchObject({
      redirect_uris: [],
      event_webhooks_url: null,
      event_webhooks_status: 1,
      event_webhooks_types: [],
      integration_types_config: { '0': {} },
      flags: 0,
    });
    expect(app).not.toHaveProperty('owner');
  });

  it('makes the bot a user that GetUser finds', async () => {
    const app = await createApp(env.handlers, { name: 'Bot Owner Test' });
    const user = JSON.parse((await env.handlers.GetUser({ user_id: app.id as string })).user_json as string);
    expect(user).toMatchObject({ id: app.id, username: 'Bot Owner Test', bot: true, discriminator: '0000' });
  });

  it('answers 50109 for malformed JSON and 50035 for bad fields, never an internal error', async () => {
    const malformed = await discordErrorOf(env.handlers.CreateApplication({ body_json: '{"name":' }));
    expect([malformed.httpStatus, malformed.code]).toEqual([400, 50109]);
    for (const body of ['[]', '"x"', '{"name": {"a": 1}}', '{"name": "ok", "redirect_uris": [{}]}']) {
      const error = await discordErrorOf(env.handlers.CreateApplication({ body_json: body }));
      expect([error.httpStatus, error.code]).toEqual([400, 50035]);
    }
  });

  it('refuses an owner that does not exist, or a bot as owner', async () => {
    const error = await discordErrorOf(
      env.handlers.CreateApplication({
        body_json: JSON.stringify({ name: 'App', owner_id: '123456789012345678' }),
      }),
    );
    expect(error.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { owner_id: { _errors: [{ code: 'UNKNOWN_USER', message: 'Unknown User' }] } },
    });
    const bot = await createApp(env.handlers, { name: 'Some Bot' });
    const botOwner = await discordErrorOf(
      env.handlers.CreateApplication({ body_json: JSON.stringify({ name: 'App', owner_id: bot.id }) }),
    );
    expect(botOwner.code).toBe(50035);
  });
});

describe('GetApplication and UpdateApplication', () => {
  it('updates only the given fields and never shows secrets again', async () => {
    const created = await createApp(env.handlers, {
      name: 'Before',
      redirect_uris: ['https://a.example/cb'],
      interactions_endpoint_url: 'https://a.example/i',
    });
    const response = await env.handlers.UpdateApplication({
      application_id: created.id as string,
      body_json: JSON.stringify({
        name: 'After',
        flags: 8,
        interactions_endpoint_url: null,
        event_webhooks_url: 'https://a.example/e',
      }),
    });
    const updated = JSON.parse(response.application_json as string);
    expect(response.flags).toBe(8);
    expect(updated).toMatchObject({
      id: created.id,
      name: 'After',
      flags: 8,
      redirect_uris: ['https://a.example/cb'],
      interactions_endpoint_url: null,
      event_webhooks_url: 'https://a.example/e',
      event_webhooks_status: 2,
      verify_key: created.verify_key,
    });
    expect(updated).not.toHaveProperty('bot_token');
    expect(updated).not.toHaveProperty('client_secret');
    const fetched = await env.handlers.GetApplication({ application_id: created.id as string });
    expect(JSON.parse(fetched.application_json as string)).toEqual(updated);
    expect(fetched.flags).toBe(8);
  });

  it('sets and clears the owner', async () => {
    const owner = await createUser(env.handlers, { username: 'later-owner' });
    const app = await createApp(env.handlers, { name: 'Ownerless' });
    const set = await env.handlers.UpdateApplication({
      application_id: app.id as string,
      body_json: JSON.stringify({ owner_id: owner.id }),
    });
    expect(JSON.parse(set.application_json as string).owner.id).toBe(owner.id);
    const cleared = await env.handlers.UpdateApplication({
      application_id: app.id as string,
      body_json: JSON.stringify({ owner_id: null }),
    });
    expect(JSON.parse(cleared.application_json as string)).not.toHaveProperty('owner');
  });

  it('answers 404 / 10002 for an unknown application and 50035 for a malformed id', async () => {
    const id = '123456789012345678';
    for (const call of [
      () => env.handlers.GetApplication({ application_id: id }),
      () => env.handlers.UpdateApplication({ application_id: id, body_json: '{"name":"xx"}' }),
      () => env.handlers.ResetBotToken({ application_id: id }),
      () => env.handlers.ResetClientSecret({ application_id: id }),
    ]) {
      const error = await discordErrorOf(call());
      expect([error.httpStatus, error.code, error.message]).toEqual([404, 10002, 'Unknown Application']);
    }
    const malformed = await discordErrorOf(env.handlers.GetApplication({ application_id: 'abc' }));
    expect(malformed.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        application_id: {
          _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "abc" is not snowflake.' }],
        },
      },
    });
  });

  it('validates a PATCH body', async () => {
    const app = await createApp(env.handlers, { name: 'Patchable' });
    const error = await discordErrorOf(
      env.handlers.UpdateApplication({
        application_id: app.id as string,
        body_json: '{"integration_types":[3]}',
      }),
    );
    expect(error.errors).toEqual({
      integration_types: {
        '0': { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (0, 1).' }] },
      },
    });
  });
});

describe('invocation facts', () => {
  it('announces every patch (application.updated) and an admin update of a user (user.updated)', async () => {
    const app = await createApp(env.handlers, { name: 'Announced' });
    await env.handlers.UpdateApplication({
      application_id: app.id as string,
      body_json: '{"description":"changed"}',
    });
    const updated = await env.prisma.outboxEvent.findMany({
      where: { subject: 'acs.oauth.application.updated' },
    });
    expect(updated.map((e) => (e.payload as { data: unknown }).data)).toContainEqual({
      application_id: app.id,
    });

    const created = await env.handlers.CreateUser({ body_json: '{"username":"renamed_user"}' });
    const userId = (JSON.parse(created.user_json as string) as { id: string }).id;
    const before = await env.prisma.outboxEvent.count({ where: { subject: 'acs.oauth.user.updated' } });
    await env.handlers.UpdateUser({ user_id: userId, body_json: '{"global_name":"New Name"}' });
    const after = await env.prisma.outboxEvent.findMany({ where: { subject: 'acs.oauth.user.updated' } });
    expect(after).toHaveLength(before + 1);
    expect(after.map((e) => (e.payload as { data: unknown }).data)).toContainEqual({ user_id: userId });
  });
});

describe('credentials', () => {
  it('resets the bot token: the old one fails at once, the new one works, and the reset is announced', async () => {
    const app = await createApp(env.handlers, { name: 'Resettable' });
    const oldToken = app.bot_token as string;
    const resolve = (token: string) => env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BOT', token });
    expect((await resolve(oldToken)).application_id).toBe(app.id);

    const { token: newToken } = await env.handlers.ResetBotToken({ application_id: app.id as string });
    expect(newToken).not.toBe(oldToken);
    expect(Buffer.from((newToken as string).split('.')[0] ?? '', 'base64').toString()).toBe(app.id);
    expect((await discordErrorOf(resolve(oldToken))).httpStatus).toBe(401);
    expect((await resolve(newToken as string)).application_id).toBe(app.id);

    const events = await env.prisma.outboxEvent.findMany({
      where: { subject: 'acs.oauth.application.bot_token_reset' },
    });
    expect(events.map((e) => (e.payload as { data: unknown }).data)).toContainEqual({
      application_id: app.id,
    });
  });

  it('resets the client secret', async () => {
    const app = await createApp(env.handlers, { name: 'Secretive' });
    const { client_secret: secret } = await env.handlers.ResetClientSecret({
      application_id: app.id as string,
    });
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(secret).not.toBe(app.client_secret);
    const row = await env.prisma.application.findUniqueOrThrow({ where: { id: BigInt(app.id as string) } });
    expect(Buffer.from(row.clientSecretHash)).toEqual(Buffer.from(hashSecret(secret as string)));
  });

  it('stores tokens and secrets only as SHA-256 digests', async () => {
    const user = await createUser(env.handlers, { username: 'dumped' });
    const app = await createApp(env.handlers, { name: 'Dumped', redirect_uris: ['https://d.example/cb'] });
    const { token: reset } = await env.handlers.ResetBotToken({ application_id: app.id as string });
    const { client_secret: secret } = await env.handlers.ResetClientSecret({
      application_id: app.id as string,
    });
    const { token: session } = await env.handlers.CreateSession({ user_id: user.id as string });
    const { code } = await env.handlers.Authorize({
      body_json: JSON.stringify({ client_id: app.id, user_id: user.id, scope: 'identify' }),
    });
    const raw = [app.bot_token, app.client_secret, reset, secret, session, code] as string[];
    expect(raw.every((value) => typeof value === 'string' && value.length >= 30)).toBe(true);

    const dump = await dumpOAuthTables(env.pool);
    for (const value of raw) {
      expect(dump).not.toContain(value);
      // The random part alone must not be there either (e.g. a token stored split up).
      expect(dump).not.toContain(value.slice(-20));
    }
    expect(dump).toContain(Buffer.from(hashSecret(reset as string)).toString('hex'));
    expect(dump).toContain(Buffer.from(hashSecret(session as string)).toString('hex'));
  });
});
