import { createPublicKey, sign, verify } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { oauth } from '@acs/protos';
import { createApp, createOAuthTestEnv, createUser, type OAuthTestEnv } from '../support/oauth-test-env';
import { serveOverGrpc, type OAuthOverGrpc } from '../support/oauth-grpc-client';

let env: OAuthTestEnv;
let grpc: OAuthOverGrpc;
let ownerId: string;
let invokerId: string;
let friendId: string;

const GUILD = '1111111111111111111';
const OTHER_GUILD = '2222222222222222222';
const UNKNOWN_ID = '1300000000000000999';

beforeAll(async () => {
  env = await createOAuthTestEnv();
  grpc = await serveOverGrpc(env);
  ownerId = (await createUser(env.handlers, { username: 'guild-owner' })).id as string;
  invokerId = (await createUser(env.handlers, { username: 'invoker', global_name: 'Invoker', locale: 'fr' }))
    .id as string;
  friendId = (await createUser(env.handlers, { username: 'friend' })).id as string;
  env.permissions.guilds.add(GUILD).add(OTHER_GUILD);
  env.permissions.managers.add(`${GUILD}:${ownerId}`);
});
afterAll(async () => {
  await grpc.close();
  await env.close();
});

const describeInvocation = (request: Partial<oauth.DescribeInvocationRequest>) =>
  grpc.call<oauth.DescribeInvocationRequest, oauth.DescribeInvocationResponse__Output>('DescribeInvocation', {
    user_id: invokerId,
    ...request,
  });
const authorize = (body: object) =>
  grpc.call<oauth.AuthorizeRequest, oauth.AuthorizeResponse__Output>('Authorize', {
    body_json: JSON.stringify(body),
  });
const publicUser = (id: string, username: string, extra: object = {}) => ({
  id,
  username,
  avatar: null,
  discriminator: '0',
  public_flags: 0,
  flags: 0,
  banner: null,
  accent_color: null,
  global_name: null,
  avatar_decoration_data: null,
  collectibles: null,
  primary_guild: null,
  ...extra,
});

describe('DescribeInvocation: the application', () => {
  it('answers the application as GetApplication does, its bot user, flags and integration types', async () => {
    const app = await createApp(env.handlers, {
      name: 'Describer',
      integration_types: [0, 1],
      flags: 1 << 17,
    });
    const answer = await describeInvocation({ application_id: app.id as string });
    const got = await env.handlers.GetApplication({ application_id: app.id as string });

    expect(JSON.parse(answer.application_json)).toEqual(JSON.parse(got.application_json as string));
    expect(answer.application_flags).toBe(1 << 17);
    expect(answer.integration_types).toEqual([0, 1]);
    expect(answer.verify_key).toBe(app.verify_key);
    expect(JSON.parse(answer.bot_user_json)).toEqual(
      publicUser(app.id as string, 'Describer', { discriminator: '0000', bot: true }),
    );
  });

  it('answers no endpoint URL until one is set, then that URL', async () => {
    const app = await createApp(env.handlers, { name: 'Endpoint' });
    const id = app.id as string;
    expect((await describeInvocation({ application_id: id })).interactions_endpoint_url).toBe('');

    await env.handlers.UpdateApplication({
      application_id: id,
      body_json: JSON.stringify({ interactions_endpoint_url: 'https://bot.example/interactions' }),
    });
    expect((await describeInvocation({ application_id: id })).interactions_endpoint_url).toBe(
      'https://bot.example/interactions',
    );

    await env.handlers.UpdateApplication({
      application_id: id,
      body_json: JSON.stringify({ interactions_endpoint_url: null }),
    });
    expect((await describeInvocation({ application_id: id })).interactions_endpoint_url).toBe('');
  });

  it('answers the private key of the pair whose public key is the verify_key', async () => {
    const app = await createApp(env.handlers, { name: 'Signer' });
    const answer = await describeInvocation({ application_id: app.id as string });
    expect(answer.signing_key_pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);

    // The raw 32-byte public key is the tail of its SPKI DER encoding.
    const spki = createPublicKey(answer.signing_key_pem).export({ format: 'der', type: 'spki' });
    expect(spki.subarray(-32).toString('hex')).toBe(answer.verify_key);

    // What an app does with verify_key: check a signature made with the answered key.
    const message = Buffer.from('1700000000{"type":1}');
    const signature = sign(null, message, answer.signing_key_pem);
    const publicKey = createPublicKey({
      key: Buffer.concat([spki.subarray(0, -32), Buffer.from(answer.verify_key, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    expect(verify(null, message, publicKey, signature)).toBe(true);
  });
});

describe('DescribeInvocation: installations', () => {
  it('reports a guild install with its scopes in that guild only', async () => {
    const app = await createApp(env.handlers, { name: 'Guild App' });
    const id = app.id as string;
    await authorize({ client_id: id, user_id: ownerId, scope: 'bot applications.commands', guild_id: GUILD });

    expect(await describeInvocation({ application_id: id, guild_id: GUILD })).toMatchObject({
      guild_installed: true,
      guild_scopes: ['bot', 'applications.commands'],
      user_installed: false,
    });
    expect(await describeInvocation({ application_id: id, guild_id: OTHER_GUILD })).toMatchObject({
      guild_installed: false,
      guild_scopes: [],
      user_installed: false,
    });
    // Outside a guild, no guild install applies.
    expect(await describeInvocation({ application_id: id })).toMatchObject({
      guild_installed: false,
      guild_scopes: [],
    });
  });

  it('reports a user install for the user who installed the app only', async () => {
    const app = await createApp(env.handlers, { name: 'User App', integration_types: [0, 1] });
    const id = app.id as string;
    await authorize({
      client_id: id,
      user_id: invokerId,
      scope: 'applications.commands',
      integration_type: 1,
    });

    expect(await describeInvocation({ application_id: id })).toMatchObject({
      guild_installed: false,
      user_installed: true,
    });
    expect(await describeInvocation({ application_id: id, guild_id: GUILD })).toMatchObject({
      guild_installed: false,
      user_installed: true,
    });
    expect(await describeInvocation({ application_id: id, user_id: friendId })).toMatchObject({
      user_installed: false,
    });
  });

  it('reports both installs together', async () => {
    const app = await createApp(env.handlers, { name: 'Both App', integration_types: [0, 1] });
    const id = app.id as string;
    await authorize({ client_id: id, user_id: ownerId, scope: 'applications.commands', guild_id: GUILD });
    await authorize({
      client_id: id,
      user_id: invokerId,
      scope: 'applications.commands',
      integration_type: 1,
    });

    expect(await describeInvocation({ application_id: id, guild_id: GUILD })).toMatchObject({
      guild_installed: true,
      guild_scopes: ['applications.commands'],
      user_installed: true,
    });
  });

  it('reports neither for an app installed nowhere', async () => {
    const app = await createApp(env.handlers, { name: 'Lonely App' });
    expect(await describeInvocation({ application_id: app.id as string, guild_id: GUILD })).toMatchObject({
      guild_installed: false,
      guild_scopes: [],
      user_installed: false,
    });
  });
});

describe('DescribeInvocation: users', () => {
  it('answers the invoking user as others see them, and their locale', async () => {
    const app = await createApp(env.handlers, { name: 'Who Asks' });
    const answer = await describeInvocation({ application_id: app.id as string });
    expect(JSON.parse(answer.user_json)).toEqual(
      publicUser(invokerId, 'invoker', { global_name: 'Invoker' }),
    );
    expect(answer.user_locale).toBe('fr');
  });

  it('resolves the users that exist, bots included, each once, and leaves out unknown and malformed ids', async () => {
    const app = await createApp(env.handlers, { name: 'Resolver' });
    const other = await createApp(env.handlers, { name: 'Other Bot' });
    const answer = await describeInvocation({
      application_id: app.id as string,
      resolve_user_ids: [
        friendId,
        UNKNOWN_ID,
        other.id as string,
        friendId,
        'not-an-id',
        '99999999999999999999',
        invokerId,
      ],
    });
    const resolved = JSON.parse(answer.resolved_users_json) as Record<string, unknown>;
    expect(Object.keys(resolved).sort()).toEqual([friendId, other.id as string, invokerId].sort());
    expect(resolved[friendId]).toEqual(publicUser(friendId, 'friend'));
    expect(resolved[other.id as string]).toEqual(
      publicUser(other.id as string, 'Other Bot', { discriminator: '0000', bot: true }),
    );
    expect(resolved[invokerId]).toEqual(JSON.parse(answer.user_json));
  });

  it('answers an empty object when there is no one to resolve', async () => {
    const app = await createApp(env.handlers, { name: 'No One' });
    expect((await describeInvocation({ application_id: app.id as string })).resolved_users_json).toBe('{}');
  });
});

describe('DescribeInvocation: errors', () => {
  it('answers 404 / 10002 for an unknown application, even with an unknown user', async () => {
    for (const userId of [invokerId, UNKNOWN_ID]) {
      const { grpcCode, error } = await grpc.errorOf(
        describeInvocation({ application_id: UNKNOWN_ID, user_id: userId }),
      );
      expect(grpcCode).toBe(status.NOT_FOUND);
      expect([error.httpStatus, error.toBody()]).toEqual([
        404,
        { code: 10002, message: 'Unknown Application' },
      ]);
    }
  });

  it('answers 404 / 10013 for an unknown invoking user', async () => {
    const app = await createApp(env.handlers, { name: 'Nobody Asks' });
    const { grpcCode, error } = await grpc.errorOf(
      describeInvocation({
        application_id: app.id as string,
        user_id: UNKNOWN_ID,
        resolve_user_ids: [friendId],
      }),
    );
    expect(grpcCode).toBe(status.NOT_FOUND);
    expect([error.httpStatus, error.toBody()]).toEqual([404, { code: 10013, message: 'Unknown User' }]);
  });

  it('answers 400 / 50035 at the field for malformed ids', async () => {
    const app = await createApp(env.handlers, { name: 'Strict' });
    const cases: [Partial<oauth.DescribeInvocationRequest>, string][] = [
      [{ application_id: 'abc' }, 'application_id'],
      [{ application_id: app.id as string, user_id: '' }, 'user_id'],
      [{ application_id: app.id as string, guild_id: '12x' }, 'guild_id'],
    ];
    for (const [request, field] of cases) {
      const { error } = await grpc.errorOf(describeInvocation(request));
      expect([error.httpStatus, error.code, Object.keys(error.errors ?? {})]).toEqual([400, 50035, [field]]);
    }
  });
});
