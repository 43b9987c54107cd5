import { UnknownResourceError } from '@acs/discord-errors';
import { loadPermissionsProto, type permissions } from '@acs/protos';
import { createGrpcClient, createGrpcServer, createLogger, type GrpcServer } from '@acs/service-kit';
import { createPermissionsClient } from '../../src/clients/permissions-client';

const GUILD = '1600000000000000001';

let server: GrpcServer;
let grpcClient: permissions.PermissionsServiceClient;

/** permissions at the network edge: one guild with one channel; any other guild is unknown. */
beforeAll(async () => {
  const proto = loadPermissionsProto().acs.permissions.v1;
  server = createGrpcServer({
    logger: createLogger('fake-permissions', 'silent'),
    services: [
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: proto.PermissionsService.service,
        handlers: {
          async GetGuild(
            request: permissions.GetGuildRequest__Output,
          ): Promise<permissions.GetGuildResponse> {
            if (request.guild_id !== GUILD) throw new UnknownResourceError(10004, 'Unknown Guild');
            return {
              guild_json: JSON.stringify({ id: GUILD, name: 'Guild', roles: [] }),
              owner_id: '1',
              channels_json: request.with_channels ? JSON.stringify([{ id: '2', type: 0 }]) : '',
            };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  grpcClient = createGrpcClient(proto.PermissionsService, `127.0.0.1:${port}`);
});

afterAll(async () => {
  grpcClient?.close();
  await server?.drain();
});

describe('createPermissionsClient', () => {
  it('reads a guild with its channels in one call, and an unknown guild as undefined', async () => {
    const client = createPermissionsClient(grpcClient);
    await expect(client.guild(GUILD)).resolves.toEqual({
      guild: { id: GUILD, name: 'Guild', roles: [] },
      channels: [{ id: '2', type: 0 }],
    });
    await expect(client.guild('1600000000000000009')).resolves.toBeUndefined();
  });
});
