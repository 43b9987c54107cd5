import { status } from '@grpc/grpc-js';
import { Client } from 'pg';
import type { oauth } from '@acs/protos';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { hashSecret } from '../../src/domain/hash-secret';
import { createApp, createOAuthTestEnv, createUser, type OAuthTestEnv } from '../support/oauth-test-env';
import { serveOverGrpc, type OAuthOverGrpc } from '../support/oauth-grpc-client';

let env: OAuthTestEnv;
let grpc: OAuthOverGrpc;
let ownerId: string;
let strangerId: string;

const GUILD = '1111111111111111111';
const OTHER_GUILD = '2222222222222222222';

beforeAll(async () => {
  env = await createOAuthTestEnv();
  grpc = await serveOverGrpc(env);
  ownerId = (await createUser(env.handlers, { username: 'guild-owner' })).id as string;
  strangerId = (await createUser(env.handlers, { username: 'stranger' })).id as string;
  env.permissions.guilds.add(GUILD).add(OTHER_GUILD);
  env.permissions.managers.add(`${GUILD}:${ownerId}`).add(`${OTHER_GUILD}:${ownerId}`);
});
afterAll(async () => {
  await grpc.close();
  await env.close();
});

const authorize = (body: object) =>
  grpc.call<oauth.AuthorizeRequest, oauth.AuthorizeResponse__Output>('Authorize', {
    body_json: JSON.stringify(body),
  });
const installationOf = (applicationId: string, guildId: string) =>
  grpc.call<oauth.GetInstallationRequest, oauth.GetInstallationResponse__Output>('GetInstallation', {
    application_id: applicationId,
    guild_id: guildId,
  });
const outboxFor = async (applicationId: string) =>
  (await env.prisma.outboxEvent.findMany({ orderBy: { createdAt: 'asc' } })).filter(
    (row) => (row.payload as { data: { application_id?: string } }).data.application_id === applicationId,
  );

describe('Authorize: guild installs', () => {
  it('installs the app for a user with MANAGE_GUILD and announces it', async () => {
    const app = await createApp(env.handlers, { name: 'Installable' });
    const answer = await authorize({
      client_id: app.id,
      user_id: ownerId,
      scope: 'bot applications.commands',
      guild_id: GUILD,
      permissions: '2048',
    });
    expect(answer).toEqual({ location: '', code: '' });
    expect(env.permissions.calls).toContainEqual({
      guild_id: GUILD,
      user_id: ownerId,
      permissions: '32',
      channel_id: '',
    });
    expect(await installationOf(app.id as string, GUILD)).toEqual({
      scopes: ['bot', 'applications.commands'],
    });

    const events = await outboxFor(app.id as string);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subject: 'acs.oauth.application.authorized',
      publishedAt: null,
      payload: {
        type: 'application.authorized',
        data: {
          application_id: app.id,
          integration_type: 0,
          user_id: ownerId,
          scopes: ['bot', 'applications.commands'],
          guild_id: GUILD,
        },
      },
    });
    expect(events[0]?.id).toBe((events[0]?.payload as { id: string }).id);
    const row = await env.prisma.guildInstallation.findUniqueOrThrow({
      where: { applicationId_guildId: { applicationId: BigInt(app.id as string), guildId: BigInt(GUILD) } },
    });
    expect(row).toMatchObject({ permissions: '2048', installedBy: BigInt(ownerId) });
    const shown = JSON.parse(
      (await env.handlers.GetApplication({ application_id: app.id as string })).application_json as string,
    );
    expect(shown.approximate_guild_count).toBe(1);
  });

  it('answers 403 / 50013 to a user without MANAGE_GUILD, and installs nothing', async () => {
    const app = await createApp(env.handlers, { name: 'Refused' });
    const { grpcCode, error } = await grpc.errorOf(
      authorize({ client_id: app.id, user_id: strangerId, scope: 'bot', guild_id: GUILD }),
    );
    expect(grpcCode).toBe(status.PERMISSION_DENIED);
    expect([error.httpStatus, error.code, error.message]).toEqual([
      403,
      50013,
      'Missing Permissions: MANAGE_GUILD',
    ]);
    const missing = await grpc.errorOf(installationOf(app.id as string, GUILD));
    expect([missing.error.httpStatus, missing.error.code, missing.error.message]).toEqual([
      403,
      50001,
      'Missing Access',
    ]);
    expect(await outboxFor(app.id as string)).toEqual([]);
  });

  it('passes the permissions service’s Unknown Guild through', async () => {
    const app = await createApp(env.handlers, { name: 'Nowhere' });
    const { error } = await grpc.errorOf(
      authorize({ client_id: app.id, user_id: ownerId, scope: 'bot', guild_id: '3333333333333333333' }),
    );
    expect([error.httpStatus, error.code, error.message]).toEqual([404, 10004, 'Unknown Guild']);
  });

  it('merges the scopes of a re-authorization and keeps the installs of other guilds apart', async () => {
    const app = await createApp(env.handlers, {
      name: 'Merger',
      redirect_uris: ['https://merge.example/cb'],
    });
    await authorize({ client_id: app.id, user_id: ownerId, scope: 'applications.commands', guild_id: GUILD });
    expect((await installationOf(app.id as string, GUILD)).scopes).toEqual(['applications.commands']);
    await authorize({ client_id: app.id, user_id: ownerId, scope: 'bot', guild_id: GUILD, permissions: '8' });
    expect((await installationOf(app.id as string, GUILD)).scopes).toEqual(['applications.commands', 'bot']);
    await authorize({ client_id: app.id, user_id: ownerId, scope: 'applications.commands', guild_id: GUILD });
    expect((await installationOf(app.id as string, GUILD)).scopes).toEqual(['applications.commands', 'bot']);
    // A later consent without `permissions` keeps the bot's.
    const row = await env.prisma.guildInstallation.findUniqueOrThrow({
      where: { applicationId_guildId: { applicationId: BigInt(app.id as string), guildId: BigInt(GUILD) } },
    });
    expect(row.permissions).toBe('8');
    expect((await grpc.errorOf(installationOf(app.id as string, OTHER_GUILD))).error.code).toBe(50001);
    expect(await outboxFor(app.id as string)).toHaveLength(3);
  });

  it('redirects with guild_id, permissions and state when a redirect URI is given', async () => {
    const app = await createApp(env.handlers, {
      name: 'Redirector',
      redirect_uris: ['https://r.example/done'],
    });
    const answer = await authorize({
      client_id: app.id,
      user_id: ownerId,
      scope: 'bot',
      guild_id: GUILD,
      permissions: '8',
      state: 'st@te',
      redirect_uri: 'https://r.example/done',
    });
    expect(answer).toEqual({
      location: `https://r.example/done?state=st%40te&guild_id=${GUILD}&permissions=8`,
      code: '',
    });
  });
});

describe('Authorize: the bot joins the guild', () => {
  const botIn = (applicationId: string, guildId = GUILD) =>
    env.permissions.botMembers.get(`${guildId}:${applicationId}`);
  const removeInstall = (applicationId: string, guildId = GUILD) =>
    grpc.call<oauth.RemoveGuildInstallationRequest, oauth.RemoveGuildInstallationResponse__Output>(
      'RemoveGuildInstallation',
      { application_id: applicationId, guild_id: guildId },
    );

  it('puts the bot in with a managed role named after the app holding the permissions granted', async () => {
    const app = await createApp(env.handlers, { name: 'Role Holder' });
    const id = app.id as string;
    const manageRoles = String(1 << 28);
    await authorize({
      client_id: id,
      user_id: ownerId,
      scope: 'bot',
      guild_id: GUILD,
      permissions: manageRoles,
    });
    expect(botIn(id)).toEqual({ roleName: 'Role Holder', permissions: manageRoles });

    // A new consent with other permissions changes the role; one without keeps them.
    await authorize({ client_id: id, user_id: ownerId, scope: 'bot', guild_id: GUILD, permissions: '2048' });
    expect(botIn(id)).toEqual({ roleName: 'Role Holder', permissions: '2048' });
    await authorize({ client_id: id, user_id: ownerId, scope: 'bot', guild_id: GUILD });
    expect(botIn(id)).toEqual({ roleName: 'Role Holder', permissions: '2048' });
    await authorize({ client_id: id, user_id: ownerId, scope: 'bot', guild_id: GUILD, permissions: '0' });
    expect(botIn(id)).toEqual({ roleName: 'Role Holder', permissions: '0' });
  });

  it('renames the bot’s managed roles when the application is renamed, and only then', async () => {
    const app = await createApp(env.handlers, { name: 'Old Name' });
    const id = app.id as string;
    await authorize({ client_id: id, user_id: ownerId, scope: 'bot', guild_id: GUILD, permissions: '2048' });
    const update = (body: Record<string, unknown>) =>
      grpc.call<oauth.UpdateApplicationRequest, oauth.UpdateApplicationResponse__Output>(
        'UpdateApplication',
        {
          application_id: id,
          body_json: JSON.stringify(body),
        },
      );
    await update({ flags: 0 });
    expect(botIn(id)).toEqual({ roleName: 'Old Name', permissions: '2048' });
    await update({ name: 'New Name' });
    expect(botIn(id)).toEqual({ roleName: 'New Name', permissions: '2048' });
  });

  it('puts no bot in without the bot scope, nor when the user may not install', async () => {
    const app = await createApp(env.handlers, { name: 'Commands Only' });
    const id = app.id as string;
    await authorize({ client_id: id, user_id: ownerId, scope: 'applications.commands', guild_id: GUILD });
    expect(botIn(id)).toBeUndefined();
    await grpc.errorOf(
      authorize({ client_id: id, user_id: strangerId, scope: 'bot', guild_id: OTHER_GUILD }),
    );
    expect(botIn(id, OTHER_GUILD)).toBeUndefined();
    // The bot scope added later brings the bot in, with the permissions of the new consent.
    await authorize({ client_id: id, user_id: ownerId, scope: 'bot', guild_id: GUILD, permissions: '8' });
    expect(botIn(id)).toEqual({ roleName: 'Commands Only', permissions: '8' });
  });

  it('records nothing when the bot cannot be added, and the same consent again installs both', async () => {
    const app = await createApp(env.handlers, { name: 'Retried' });
    const id = app.id as string;
    const consent = { client_id: id, user_id: ownerId, scope: 'bot', guild_id: GUILD, permissions: '16' };
    env.permissions.failBotMembers = true;
    try {
      const { error } = await grpc.errorOf(authorize(consent));
      expect([error.httpStatus, error.message]).toEqual([500, 'permissions is failing on purpose']);
    } finally {
      env.permissions.failBotMembers = false;
    }
    expect((await grpc.errorOf(installationOf(id, GUILD))).error.code).toBe(50001);
    expect(await outboxFor(id)).toEqual([]);
    expect(botIn(id)).toBeUndefined();
    await authorize(consent);
    expect(await installationOf(id, GUILD)).toEqual({ scopes: ['bot', 'applications.commands'] });
    expect(await outboxFor(id)).toHaveLength(1);
    expect(botIn(id)).toEqual({ roleName: 'Retried', permissions: '16' });
  });

  it('takes the bot out when its guild install is removed, and only then', async () => {
    const app = await createApp(env.handlers, { name: 'Leaver' });
    const id = app.id as string;
    await authorize({ client_id: id, user_id: ownerId, scope: 'bot', guild_id: GUILD, permissions: '8' });
    await authorize({
      client_id: id,
      user_id: ownerId,
      scope: 'bot',
      guild_id: OTHER_GUILD,
      permissions: '8',
    });
    expect(await removeInstall(id)).toEqual({ removed: true });
    expect(botIn(id)).toBeUndefined();
    expect(botIn(id, OTHER_GUILD)).toEqual({ roleName: 'Leaver', permissions: '8' });

    // Not installed (any member's id reaches this RPC): nothing is asked of permissions.
    env.permissions.failBotMembers = true;
    try {
      expect(await removeInstall(id)).toEqual({ removed: false });
    } finally {
      env.permissions.failBotMembers = false;
    }
  });
});

describe('Authorize: user installs and codes', () => {
  it('installs to the user with integration type 1', async () => {
    const app = await createApp(env.handlers, { name: 'User App', integration_types: [0, 1] });
    const calls = env.permissions.calls.length;
    await authorize({
      client_id: app.id,
      user_id: strangerId,
      scope: 'applications.commands',
      integration_type: 1,
    });
    expect(env.permissions.calls).toHaveLength(calls);
    const row = await env.prisma.userInstallation.findUniqueOrThrow({
      where: {
        applicationId_userId: { applicationId: BigInt(app.id as string), userId: BigInt(strangerId) },
      },
    });
    expect(row.scopes).toEqual(['applications.commands']);
    const [event] = await outboxFor(app.id as string);
    expect((event?.payload as { data: unknown }).data).toEqual({
      application_id: app.id,
      integration_type: 1,
      user_id: strangerId,
      scopes: ['applications.commands'],
    });
  });

  it('issues a single code, stored hashed with what it grants, and redirects with it', async () => {
    const app = await createApp(env.handlers, {
      name: 'Code App',
      redirect_uris: ['https://code.example/cb?app=1', 'https://code.example/other'],
    });
    const answer = await authorize({
      client_id: app.id,
      user_id: strangerId,
      scope: 'identify email',
      redirect_uri: 'https://code.example/cb?app=1',
      state: 'a b',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    expect(answer.code).toMatch(/^[A-Za-z0-9_-]{30}$/);
    expect(answer.location).toBe(`https://code.example/cb?app=1&code=${answer.code}&state=a+b`);

    const row = await env.prisma.authorizationCode.findUniqueOrThrow({
      where: { codeHash: hashSecret(answer.code) },
    });
    expect(row).toMatchObject({
      applicationId: BigInt(app.id as string),
      userId: BigInt(strangerId),
      scopes: ['identify', 'email'],
      redirectUri: 'https://code.example/cb?app=1',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      codeChallengeMethod: 'S256',
      guildId: null,
      usedAt: null,
    });
    expect(row.expiresAt.getTime() - env.clock.now.getTime()).toBe(100_000);
    // Only a consent that installs announces an authorization.
    expect(await outboxFor(app.id as string)).toEqual([]);
  });

  it('installs and issues a code in one consent, binding the guild to the code', async () => {
    const app = await createApp(env.handlers, { name: 'Both', redirect_uris: ['https://both.example/cb'] });
    const answer = await authorize({
      client_id: app.id,
      user_id: ownerId,
      scope: 'bot identify',
      guild_id: GUILD,
      permissions: '0',
    });
    expect(answer.location).toBe(
      `https://both.example/cb?code=${answer.code}&guild_id=${GUILD}&permissions=0`,
    );
    const row = await env.prisma.authorizationCode.findUniqueOrThrow({
      where: { codeHash: hashSecret(answer.code) },
    });
    expect(row).toMatchObject({
      guildId: BigInt(GUILD),
      scopes: ['bot', 'identify', 'applications.commands'],
    });
    expect((await installationOf(app.id as string, GUILD)).scopes).toEqual(['bot', 'applications.commands']);
    const [event] = await outboxFor(app.id as string);
    expect((event?.payload as { data: { scopes: string[] } }).data.scopes).toEqual([
      'bot',
      'identify',
      'applications.commands',
    ]);
  });
});

describe('Authorize: refusals', () => {
  it('answers field errors for unknown client and user', async () => {
    const { grpcCode, error } = await grpc.errorOf(
      authorize({ client_id: '123456789012345678', user_id: '123456789012345679', scope: 'identify' }),
    );
    expect(grpcCode).toBe(status.INVALID_ARGUMENT);
    expect(error.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        client_id: { _errors: [{ code: 'UNKNOWN_APPLICATION', message: 'Unknown Application' }] },
        user_id: { _errors: [{ code: 'UNKNOWN_USER', message: 'Unknown User' }] },
      },
    });
  });

  it('answers 50035 on scope for an unknown scope, and 50109 for malformed JSON', async () => {
    const app = await createApp(env.handlers, { name: 'Scoped' });
    const unknown = await grpc.errorOf(authorize({ client_id: app.id, user_id: ownerId, scope: 'bot nope' }));
    expect(unknown.error.errors).toEqual({
      scope: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value "nope" is not a valid scope.' }] },
    });
    const malformed = await grpc.errorOf(
      grpc.call('Authorize', { body_json: '{"client_id": ' } satisfies oauth.AuthorizeRequest),
    );
    expect([malformed.error.httpStatus, malformed.error.code]).toEqual([400, 50109]);
    const notObject = await grpc.errorOf(
      grpc.call('Authorize', { body_json: '[1]' } satisfies oauth.AuthorizeRequest),
    );
    expect(notObject.error.errors).toEqual({
      _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
    });
  });

  it('refuses a redirect URI that is not registered exactly', async () => {
    const app = await createApp(env.handlers, {
      name: 'Strict',
      redirect_uris: ['https://strict.example/cb'],
    });
    const { error } = await grpc.errorOf(
      authorize({
        client_id: app.id,
        user_id: ownerId,
        scope: 'identify',
        redirect_uri: 'https://strict.example/cb?x',
      }),
    );
    expect(error.errors).toEqual({
      redirect_uri: {
        _errors: [{ code: 'OAUTH2_INVALID_REDIRECT_URI', message: 'Invalid OAuth2 redirect_uri' }],
      },
    });
  });

  it('answers wrong types in any admin body with 50035 over the wire, never INTERNAL', async () => {
    const bodies: [keyof oauth.OAuthServiceClient & string, string][] = [
      [
        'CreateApplication',
        '{"name": ["x"], "flags": "1", "integration_types": {"0": 1}, "public_client": null}',
      ],
      ['CreateUser', '{"username": 12, "premium_type": "1", "email": []}'],
      [
        'Authorize',
        '{"client_id": {}, "user_id": true, "scope": ["bot"], "state": 5, "integration_type": "0"}',
      ],
    ];
    for (const [method, body] of bodies) {
      const { grpcCode, error } = await grpc.errorOf(grpc.call(method, { body_json: body }));
      expect([method, grpcCode, error.code]).toEqual([method, status.INVALID_ARGUMENT, 50035]);
    }
  });
});

describe('the outbox', () => {
  it('writes the event in the installation’s transaction: a failed consent leaves neither', async () => {
    const app = await createApp(env.handlers, { name: 'Atomic' });
    // The code's user does not exist: its insert fails after the installation and the event.
    await expect(
      env.deps.installations.recordConsent({
        applicationId: app.id as string,
        userId: '999999999999999999',
        scopes: ['bot', 'identify', 'applications.commands'],
        install: { type: 0, guildId: GUILD },
        installScopes: ['bot', 'applications.commands'],
        permissions: null,
        code: {
          codeHash: hashSecret('doomed'),
          expiresAt: new Date(Date.now() + 100_000),
          redirectUri: null,
          codeChallenge: null,
          codeChallengeMethod: null,
          nonce: null,
          guildId: GUILD,
          permissions: null,
        },
      }),
    ).rejects.toThrow();
    expect(await outboxFor(app.id as string)).toEqual([]);
    expect(
      await env.prisma.guildInstallation.count({ where: { applicationId: BigInt(app.id as string) } }),
    ).toBe(0);
  });

  it('wakes the relay when the consent commits', async () => {
    const listener = new Client({ connectionString: serviceDatabaseUrl(env.database.url, 'oauth') });
    await listener.connect();
    try {
      await listener.query('LISTEN oauth_outbox');
      const notified = new Promise<void>((resolve) => listener.once('notification', () => resolve()));
      const app = await createApp(env.handlers, { name: 'Notifier' });
      await authorize({ client_id: app.id, user_id: ownerId, scope: 'bot', guild_id: GUILD });
      await expect(notified).resolves.toBeUndefined();
    } finally {
      await listener.end();
    }
  });
});
