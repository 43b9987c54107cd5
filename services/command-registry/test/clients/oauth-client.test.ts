import { DiscordError, MissingAccessError } from '@acs/discord-errors';
import { loadOAuthProto, type oauth } from '@acs/protos';
import {
  createGrpcClient,
  createGrpcServer,
  createLogger,
  PeerUnavailableError,
  type GrpcServer,
} from '@acs/service-kit';
import { createOAuthClient, type OAuthClient } from '../../src/clients/oauth-client';

const APP = '1500000000000000001';
const GUILD = '1500000000000000002';

let server: GrpcServer;
let grpcClient: oauth.OAuthServiceClient;
let client: OAuthClient;

/** oauth at the network edge: APP is installed in GUILD with `bot`; nothing else is installed. */
beforeAll(async () => {
  const proto = loadOAuthProto().acs.oauth.v1;
  server = createGrpcServer({
    logger: createLogger('fake-oauth', 'silent'),
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: proto.OAuthService.service,
        handlers: {
          async GetInstallation(
            request: oauth.GetInstallationRequest__Output,
          ): Promise<oauth.GetInstallationResponse> {
            if (request.application_id !== APP || request.guild_id !== GUILD) throw new MissingAccessError();
            return { scopes: ['bot'] };
          },
          async ListGuildInstallations(
            request: oauth.ListGuildInstallationsRequest__Output,
          ): Promise<oauth.ListGuildInstallationsResponse> {
            if (request.guild_id !== GUILD) return { installations: [] };
            return { installations: [{ application_id: APP, scopes: ['bot'], name: 'Music', bot_id: APP }] };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  grpcClient = createGrpcClient(proto.OAuthService, `127.0.0.1:${port}`);
  client = createOAuthClient(grpcClient);
});

afterAll(async () => {
  grpcClient?.close();
  await server?.drain();
});

describe('createOAuthClient', () => {
  it('gives the scopes of an installation', async () => {
    await expect(client.installationScopes(APP, GUILD)).resolves.toEqual(['bot']);
  });

  it("rejects with oauth's own 403 / 50001 for an application not installed in the guild", async () => {
    const failure = await client.installationScopes(APP, '1500000000000000009').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DiscordError);
    expect(failure).toMatchObject({ httpStatus: 403, code: 50001 });
  });

  it("lists a guild's installations in its own terms", async () => {
    await expect(client.listGuildInstallations(GUILD)).resolves.toEqual([
      { applicationId: APP, scopes: ['bot'], name: 'Music', botId: APP },
    ]);
    await expect(client.listGuildInstallations('1500000000000000009')).resolves.toEqual([]);
  });

  it('rejects with 503 when oauth cannot be reached', async () => {
    const proto = loadOAuthProto().acs.oauth.v1;
    // Port 1: nothing listens there, the connection is refused.
    const down = createGrpcClient(proto.OAuthService, '127.0.0.1:1');
    try {
      const unreachable = createOAuthClient(down);
      await expect(unreachable.installationScopes(APP, GUILD)).rejects.toBeInstanceOf(PeerUnavailableError);
      await expect(unreachable.listGuildInstallations(GUILD)).rejects.toBeInstanceOf(PeerUnavailableError);
    } finally {
      down.close();
    }
  });
});
