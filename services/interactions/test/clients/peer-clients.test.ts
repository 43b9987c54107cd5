import { DiscordError, UnknownResourceError } from '@acs/discord-errors';
import {
  loadCommandRegistryProto,
  loadOAuthProto,
  loadPermissionsProto,
  type commandRegistry,
  type oauth,
  type permissions,
} from '@acs/protos';
import {
  createGrpcClient,
  createGrpcServer,
  createLogger,
  PeerUnavailableError,
  type GrpcServer,
} from '@acs/service-kit';
import { createCommandRegistryClient } from '../../src/clients/command-registry-client';
import { createOAuthClient } from '../../src/clients/oauth-client';
import { createPermissionsClient } from '../../src/clients/permissions-client';

const APP = '1500000000000000001';
const USER = '1500000000000000004';
const DM = '1500000000000000011';
const COMMAND = '1500000000000000005';

let server: GrpcServer;
let address: string;
const requests: Record<string, unknown> = {};

/** The three peers at the network edge: a DM place, one global command, an app without endpoint. */
beforeAll(async () => {
  server = createGrpcServer({
    logger: createLogger('fake-peers', 'silent'),
    isReady: async () => true,
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: loadOAuthProto().acs.oauth.v1.OAuthService.service,
        handlers: {
          async DescribeInvocation(
            request: oauth.DescribeInvocationRequest__Output,
          ): Promise<oauth.DescribeInvocationResponse> {
            requests.oauth = request;
            if (request.application_id !== APP) throw new UnknownResourceError(10002, 'Unknown Application');
            return {
              application_json: '{"id":"1"}',
              application_flags: 131072,
              interactions_endpoint_url: '',
              verify_key: 'ab',
              signing_key_pem: 'PEM',
              bot_user_json: '{"id":"1","bot":true}',
              user_json: `{"id":"${USER}"}`,
              user_locale: 'fr',
              guild_installed: false,
              guild_scopes: [],
              user_installed: true,
              resolved_users_json: '',
              integration_types: [0, 1],
            };
          },
        },
      },
      {
        name: 'acs.command_registry.v1.CommandRegistryService',
        definition: loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService.service,
        handlers: {
          async GetInvocableCommand(
            request: commandRegistry.GetInvocableCommandRequest__Output,
          ): Promise<commandRegistry.GetInvocableCommandResponse> {
            requests.registry = request;
            if (request.command_id !== COMMAND)
              throw new UnknownResourceError(10063, 'Unknown application command');
            return { command_json: `{"id":"${COMMAND}"}`, guild_id: '', named_version: '7' };
          },
        },
      },
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: loadPermissionsProto().acs.permissions.v1.PermissionsService.service,
        handlers: {
          async DescribeInvocationContext(
            request: permissions.DescribeInvocationContextRequest__Output,
          ): Promise<permissions.DescribeInvocationContextResponse> {
            requests.permissions = request;
            if (request.channel_id !== DM) throw new UnknownResourceError(10003, 'Unknown Channel');
            return {
              channel_json: `{"id":"${DM}","type":1}`,
              guild_json: '',
              member_json: '',
              user_permissions: '2048',
              app_permissions: '2048',
              bot_is_member: false,
              allowed: true,
              reason: '',
              resolved_members_json: '',
              resolved_roles_json: '',
              resolved_channels_json: '',
              recipient_ids: [USER, APP],
            };
          },
        },
      },
    ],
  });
  address = `127.0.0.1:${await server.listen('127.0.0.1:0')}`;
});
afterAll(() => server?.drain());

const oauthClient = () =>
  createOAuthClient(createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, address));
const registryClient = () =>
  createCommandRegistryClient(
    createGrpcClient(loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService, address),
  );
const permissionsClient = () =>
  createPermissionsClient(
    createGrpcClient(loadPermissionsProto().acs.permissions.v1.PermissionsService, address),
  );

describe('the peer clients', () => {
  it("read oauth's DescribeInvocation in domain terms (no endpoint: null)", async () => {
    await expect(
      oauthClient().describeInvocation({
        applicationId: APP,
        userId: USER,
        guildId: null,
        resolveUserIds: ['9'],
      }),
    ).resolves.toEqual({
      application: { id: '1' },
      applicationFlags: 131072,
      interactionsEndpointUrl: null,
      signingKeyPem: 'PEM',
      integrationTypes: [0, 1],
      botUser: { id: '1', bot: true },
      user: { id: USER },
      userLocale: 'fr',
      guildInstalled: false,
      userInstalled: true,
      resolvedUsers: {},
      entitlements: [],
    });
    expect(requests.oauth).toEqual({
      application_id: APP,
      user_id: USER,
      guild_id: '',
      resolve_user_ids: ['9'],
    });
  });

  it("pass oauth's own 404 on", async () => {
    const failure = await oauthClient()
      .describeInvocation({ applicationId: '2', userId: USER, guildId: null, resolveUserIds: [] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DiscordError);
    expect(failure).toMatchObject({ httpStatus: 404, code: 10002 });
  });

  it('find a command, or nothing for an unknown one', async () => {
    await expect(registryClient().invocableCommand(APP, null, COMMAND)).resolves.toEqual({
      command: { id: COMMAND },
      guildId: null,
      namedVersion: '7',
    });
    await expect(registryClient().invocableCommand(APP, '3', '4')).resolves.toBeUndefined();
    expect(requests.registry).toEqual({ application_id: APP, guild_id: '3', command_id: '4' });
  });

  it('read a DM place: no guild, no member, empty maps', async () => {
    const place = await permissionsClient().describeInvocationContext({
      channelId: DM,
      guildId: null,
      userId: USER,
      applicationId: APP,
      command: {
        applicationId: APP,
        commandId: COMMAND,
        name: 'ping',
        defaultMemberPermissions: null,
        version: '7',
        namedVersion: '7',
      },
      resolveUserIds: [],
      resolveRoleIds: ['5'],
      resolveChannelIds: [],
    });
    expect(place).toMatchObject({
      channel: { id: DM, type: 1 },
      guild: null,
      member: null,
      resolvedMembers: {},
      resolvedRoles: {},
      resolvedChannels: {},
      recipientIds: [USER, APP],
    });
    expect(requests.permissions).toMatchObject({
      guild_id: '',
      command: { command_id: COMMAND, default_member_permissions: '', named_version: '7' },
      resolve_role_ids: ['5'],
    });
  });

  it('reject with 503 when a peer cannot be reached', async () => {
    const down = createOAuthClient(
      createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, '127.0.0.1:1'),
    );
    await expect(
      down.describeInvocation({ applicationId: APP, userId: USER, guildId: null, resolveUserIds: [] }),
    ).rejects.toBeInstanceOf(PeerUnavailableError);
  });
});
