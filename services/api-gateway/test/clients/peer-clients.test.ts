import {
  DiscordError,
  fieldError,
  OAuth2Error,
  oauth2BadRequest,
  UnauthorizedError,
  UnknownResourceError,
} from '@acs/discord-errors';
import {
  loadCommandRegistryProto,
  loadDispatcherProto,
  loadInteractionsProto,
  loadOAuthProto,
  loadPermissionsProto,
  type commandRegistry,
  type interactions,
  type oauth,
  type permissions,
} from '@acs/protos';
import { createGrpcServer, createLogger, PeerUnavailableError, type GrpcServer } from '@acs/service-kit';
import {
  closeBackendClients,
  createBackendClients,
  type BackendClients,
} from '../../src/clients/backend-clients';
import { createPeerClients, type PeerClients } from '../../src/clients/peer-clients';

/**
 * The typed clients against the five peers stood in for on one real gRPC server: what
 * each sends on the wire, what it makes of the answer, and that a peer's own error comes
 * back as its DiscordError (an OAuth2Error too) while a peer that is down is 503.
 */
const APP = '1400000000000000001';
const GUILD = '1400000000000000100';
const USER = '1400000000000000002';

let server: GrpcServer;
let backends: BackendClients;
let down: BackendClients;
let peers: PeerClients;
let downPeers: PeerClients;
/** The last request each RPC received, by name. */
const received = new Map<string, unknown>();

function recorded<Req, Res>(name: string, answer: (request: Req) => Res) {
  return async (request: Req): Promise<Res> => {
    received.set(name, request);
    return answer(request);
  };
}

beforeAll(async () => {
  server = createGrpcServer({
    logger: createLogger('fake-peers', 'silent'),
    isReady: async () => true,
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: loadOAuthProto().acs.oauth.v1.OAuthService.service,
        handlers: {
          ResolveToken: recorded('ResolveToken', (request: oauth.ResolveTokenRequest__Output) => {
            if (request.token !== 'good') throw new UnauthorizedError();
            return {
              kind: request.kind,
              application_id: APP,
              user_id: USER,
              scopes: ['identify'],
              application_flags: 1 << 17,
              user_locale: 'fr',
              cache_seconds: 20,
            };
          }),
          ExchangeToken: recorded('ExchangeToken', (request: oauth.ExchangeTokenRequest__Output) => {
            if (request.params.code !== 'fresh') throw oauth2BadRequest('invalid_grant', 'Invalid "code".');
            return { access_token: 'at', token_type: 'Bearer', expires_in: 604800, scope: 'identify' };
          }),
          GetUser: recorded('GetUser', (request: oauth.GetUserRequest__Output) => {
            if (request.user_id !== USER) throw new UnknownResourceError(10013, 'Unknown User');
            return { user_json: `{"id":"${USER}"}` };
          }),
          ListBotGuilds: recorded('ListBotGuilds', () => ({
            guilds: [{ guild_id: GUILD, permissions: '2048' }],
          })),
        },
      },
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: loadPermissionsProto().acs.permissions.v1.PermissionsService.service,
        handlers: {
          ListMemberGuilds: recorded('ListMemberGuilds', () => ({ guilds_json: '[]' })),
          FilterUsableCommands: recorded('FilterUsableCommands', () => ({
            command_ids: ['1400000000000000300'],
          })),
          CheckPermissions: recorded(
            'CheckPermissions',
            (request: permissions.CheckPermissionsRequest__Output) => {
              if (request.guild_id !== GUILD) throw new UnknownResourceError(10004, 'Unknown Guild');
              return { allowed: true, is_member: true };
            },
          ),
        },
      },
      {
        name: 'acs.command_registry.v1.CommandRegistryService',
        definition: loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService.service,
        handlers: {
          ListGuildCommandIndex: recorded('ListGuildCommandIndex', () => ({
            applications_json: `[{"id":"${APP}","name":"App"}]`,
            commands_json: `[{"id":"1400000000000000300","application_id":"${APP}","version":"7","name":"Ping"}]`,
            commands: [
              {
                id: '1400000000000000300',
                application_id: APP,
                name: 'ping',
                default_member_permissions: '',
                guild_id: '',
                version: '7',
                named_version: '5',
              },
            ],
          })),
          CreateCommand: recorded(
            'CreateCommand',
            (request: commandRegistry.CreateCommandRequest__Output) => ({
              command_json: request.body_json,
              created: request.guild_id === '',
            }),
          ),
        },
      },
      {
        name: 'acs.dispatcher.v1.DispatcherService',
        definition: loadDispatcherProto().acs.dispatcher.v1.DispatcherService.service,
        handlers: {
          GetGateway: recorded('GetGateway', () => ({ url: 'ws://gateway.test', shards: 1 })),
          VerifyInteractionsEndpoint: recorded('VerifyInteractionsEndpoint', () => {
            throw fieldError(
              'interactions_endpoint_url',
              'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
              'No.',
            );
          }),
        },
      },
      {
        name: 'acs.interactions.v1.InteractionsService',
        definition: loadInteractionsProto().acs.interactions.v1.InteractionsService.service,
        handlers: {
          CreateInteraction: recorded(
            'CreateInteraction',
            (request: interactions.CreateInteractionRequest__Output) => ({
              outcome_json: request.wait ? '{"outcome":"success"}' : '',
            }),
          ),
          CreateCallback: recorded(
            'CreateCallback',
            (request: interactions.CreateCallbackRequest__Output) => {
              if (request.token !== 'tok') throw new UnknownResourceError(10062, 'Unknown interaction');
              return {
                response_json: request.with_response ? '{"interaction":{}}' : '',
                application_id: APP,
              };
            },
          ),
          CreateFollowup: recorded('CreateFollowup', () => ({ message_json: '{"id":"1"}' })),
          GetWebhookMessage: recorded('GetWebhookMessage', () => ({ message_json: '{"id":"2"}' })),
          EditWebhookMessage: recorded('EditWebhookMessage', () => ({ message_json: '{"id":"3"}' })),
          DeleteWebhookMessage: recorded('DeleteWebhookMessage', () => ({})),
        },
      },
    ],
  });
  const port = await server.listen('127.0.0.1:0');
  const url = `127.0.0.1:${port}`;
  backends = createBackendClients({
    registry: url,
    oauth: url,
    permissions: url,
    dispatcher: url,
    interactions: url,
    lobby: url,
  });
  peers = createPeerClients(backends);
  // Port 1 refuses: every peer there is down.
  const nowhere = '127.0.0.1:1';
  down = createBackendClients({
    registry: nowhere,
    oauth: nowhere,
    permissions: nowhere,
    dispatcher: nowhere,
    interactions: nowhere,
    lobby: nowhere,
  });
  downPeers = createPeerClients(down);
});

afterAll(async () => {
  closeBackendClients(backends);
  closeBackendClients(down);
  await server.drain();
});

describe('every client', () => {
  it('reports whether its peer is serving', async () => {
    // Ten seconds: a busy machine may take more than one to connect and answer the health check.
    const serving = await Promise.all(Object.values(peers).map((peer) => peer.isServing(10_000)));
    expect(serving).toEqual([true, true, true, true, true, true]);
    const downServing = await Promise.all(Object.values(downPeers).map((peer) => peer.isServing(1000)));
    expect(downServing).toEqual([false, false, false, false, false, false]);
  });

  it('rejects with the DiscordError a peer answered, and 503 when the peer is down', async () => {
    await expect(peers.oauth.getPublicUser('1400000000000000009')).rejects.toEqual(
      new UnknownResourceError(10013, 'Unknown User'),
    );
    await expect(peers.permissions.isMember('1400000000000000199', USER)).rejects.toMatchObject({
      httpStatus: 404,
      code: 10004,
    });
    const refused = await peers.dispatcher.verifyInteractionsEndpoint(APP, 'https://x.test').catch((e) => e);
    expect(refused).toBeInstanceOf(DiscordError);
    expect((refused as DiscordError).toBody()).toEqual(
      fieldError(
        'interactions_endpoint_url',
        'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
        'No.',
      ).toBody(),
    );
    await expect(downPeers.registry.deleteCommand({ applicationId: APP }, GUILD)).rejects.toBeInstanceOf(
      PeerUnavailableError,
    );
  });
});

describe('the oauth client', () => {
  it('resolves a token to a principal of the kind asked, with how long to trust it', async () => {
    expect(await peers.oauth.resolveToken('bearer', 'good')).toEqual({
      principal: {
        kind: 'bearer',
        applicationId: APP,
        userId: USER,
        scopes: ['identify'],
        applicationFlags: 1 << 17,
        userLocale: 'fr',
      },
      cacheSeconds: 20,
    });
    expect(received.get('ResolveToken')).toEqual({ kind: 'PRINCIPAL_KIND_BEARER', token: 'good' });
    await expect(peers.oauth.resolveToken('bot', 'bad')).rejects.toMatchObject({ httpStatus: 401 });
  });

  it('sends the client authentication and the form, and keeps an OAuth2Error an OAuth2Error', async () => {
    const client = { clientId: APP, clientSecret: 's3cret', method: 'basic' as const };
    expect(
      await peers.oauth.exchangeToken(
        client,
        { grant_type: 'authorization_code', code: 'fresh' },
        'https://acs.example',
      ),
    ).toEqual({
      accessToken: 'at',
      tokenType: 'Bearer',
      expiresIn: 604800,
      refreshToken: '',
      scope: 'identify',
      idToken: '',
    });
    expect(received.get('ExchangeToken')).toEqual({
      client_id: APP,
      client_secret: 's3cret',
      auth_method: 'CLIENT_AUTH_METHOD_BASIC',
      params: { grant_type: 'authorization_code', code: 'fresh' },
      issuer: 'https://acs.example',
    });
    const refused = await peers.oauth.exchangeToken(client, { code: 'spent' }, '').catch((e) => e);
    expect(refused).toBeInstanceOf(OAuth2Error);
    expect((refused as OAuth2Error).error).toBe('invalid_grant');
  });
});

describe('the permissions client', () => {
  it('lists a bot’s guilds with its grants, and a user’s without', async () => {
    const page = { userId: APP, before: '', after: '', limit: 200, withCounts: true };
    const grants = await peers.oauth.listBotGuilds(APP);
    expect(grants).toEqual([{ guildId: GUILD, permissions: '2048' }]);
    await peers.permissions.listMemberGuilds(page, grants);
    expect(received.get('ListMemberGuilds')).toMatchObject({
      user_id: APP,
      limit: 200,
      with_counts: true,
      use_grants: true,
      grants: [{ guild_id: GUILD, permissions: '2048' }],
    });
    await peers.permissions.listMemberGuilds({ ...page, userId: USER });
    expect(received.get('ListMemberGuilds')).toMatchObject({ user_id: USER, use_grants: false, grants: [] });
  });
});

describe('the command-registry client', () => {
  it('sends a global scope with no guild id', async () => {
    expect(await peers.registry.createCommand({ applicationId: APP }, '{"name":"ping"}', 0)).toEqual({
      commandJson: '{"name":"ping"}',
      created: true,
    });
    expect(received.get('CreateCommand')).toMatchObject({ application_id: APP, guild_id: '' });
    await peers.registry.createCommand({ applicationId: APP, guildId: GUILD }, '{}', 4);
    expect(received.get('CreateCommand')).toMatchObject({ guild_id: GUILD, application_flags: 4 });
  });
});

describe('the command index', () => {
  it('hands permissions the commands as command-registry registered them', async () => {
    const index = await peers.registry.guildCommandIndex(GUILD, 'fr');
    expect(received.get('ListGuildCommandIndex')).toEqual({ guild_id: GUILD, locale: 'fr' });
    expect(index.applications).toEqual([{ id: APP, name: 'App' }]);
    expect(index.commands).toEqual([
      { id: '1400000000000000300', application_id: APP, version: '7', name: 'Ping' },
    ]);
    expect(await peers.permissions.filterUsableCommands(GUILD, '', USER, index.registered)).toEqual([
      '1400000000000000300',
    ]);
    expect(received.get('FilterUsableCommands')).toEqual({
      guild_id: GUILD,
      channel_id: '',
      user_id: USER,
      commands: [
        {
          application_id: APP,
          command_id: '1400000000000000300',
          name: 'ping',
          default_member_permissions: '',
          version: '7',
          named_version: '5',
        },
      ],
    });
  });
});

describe('the dispatcher client', () => {
  it('gives a bot Discord’s default session start limit when the dispatcher sent none', async () => {
    expect(await peers.dispatcher.botGateway(APP)).toEqual({
      url: 'ws://gateway.test',
      shards: 1,
      sessionStartLimit: { total: 1000, remaining: 1000, resetAfter: 0, maxConcurrency: 1 },
    });
    expect(received.get('GetGateway')).toEqual({ application_id: APP });
    expect(await peers.dispatcher.gatewayUrl()).toBe('ws://gateway.test');
    expect(received.get('GetGateway')).toEqual({ application_id: '' });
  });
});

describe('the interactions client', () => {
  const message = { applicationId: APP, token: 'tok', messageId: '@original' };

  it('sends an invocation as the user’s, and answers the outcome only when waiting', async () => {
    const invocation = { userId: USER, bodyJson: '{"type":2}', locale: 'fr', wait: false };
    expect(await peers.interactions.createInteraction(invocation)).toBe('');
    expect(received.get('CreateInteraction')).toEqual({
      user_id: USER,
      body_json: '{"type":2}',
      locale: 'fr',
      wait: false,
      wait_final: false,
      wait_timeout_ms: 0,
      files: [],
      attachment_base_url: '',
    });
    expect(await peers.interactions.createInteraction({ ...invocation, wait: true })).toBe(
      '{"outcome":"success"}',
    );
  });

  it('sends a callback, and rejects with the service’s error as it answered', async () => {
    const input = { interactionId: '1400000000000000400', token: 'tok', bodyJson: '{"type":4}' };
    expect(await peers.interactions.createCallback({ ...input, withResponse: true })).toEqual({
      responseJson: '{"interaction":{}}',
      applicationId: APP,
    });
    expect(received.get('CreateCallback')).toEqual({
      interaction_id: '1400000000000000400',
      token: 'tok',
      body_json: '{"type":4}',
      with_response: true,
      files: [],
      attachment_base_url: '',
    });
    await expect(
      peers.interactions.createCallback({ ...input, token: 'other', withResponse: false }),
    ).rejects.toEqual(new UnknownResourceError(10062, 'Unknown interaction'));
  });

  it('names the webhook message on every message call, with the edit’s body on PATCH only', async () => {
    expect(
      await peers.interactions.createFollowup({ applicationId: APP, token: 'tok', bodyJson: '{}' }),
    ).toBe('{"id":"1"}');
    expect(received.get('CreateFollowup')).toEqual({
      application_id: APP,
      token: 'tok',
      body_json: '{}',
      files: [],
      attachment_base_url: '',
    });
    const file = { index: 0, blobKey: 'uploads/k', filename: 'a.txt', contentType: 'text/plain', size: 3 };
    await peers.interactions.createFollowup({
      applicationId: APP,
      token: 'tok',
      bodyJson: '{}',
      files: { files: [file], baseUrl: 'https://acs.test' },
    });
    expect(received.get('CreateFollowup')).toMatchObject({
      files: [{ index: 0, blob_key: 'uploads/k', filename: 'a.txt', content_type: 'text/plain', size: 3 }],
      attachment_base_url: 'https://acs.test',
    });
    const wire = {
      application_id: APP,
      token: 'tok',
      message_id: '@original',
      body_json: '',
      files: [],
      attachment_base_url: '',
    };
    expect(await peers.interactions.getWebhookMessage(message)).toBe('{"id":"2"}');
    expect(received.get('GetWebhookMessage')).toEqual(wire);
    expect(await peers.interactions.editWebhookMessage(message, '{"content":"x"}')).toBe('{"id":"3"}');
    expect(received.get('EditWebhookMessage')).toEqual({ ...wire, body_json: '{"content":"x"}' });
    await peers.interactions.deleteWebhookMessage(message);
    expect(received.get('DeleteWebhookMessage')).toEqual(wire);
    await expect(downPeers.interactions.deleteWebhookMessage(message)).rejects.toBeInstanceOf(
      PeerUnavailableError,
    );
  });
});
