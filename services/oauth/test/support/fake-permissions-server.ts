import * as grpc from '@grpc/grpc-js';
import { loadPermissionsProto, type permissions } from '@acs/protos';
import {
  CLIENT_CHANNEL_OPTIONS,
  createGrpcServer,
  createLogger,
  UnknownResourceError,
} from '@acs/service-kit';
import type { PermissionsClient } from '../../src/clients/require-manage-guild';

/** A PermissionsService stand-in at the network edge: which users manage which guilds. */
export interface FakePermissions {
  client: PermissionsClient;
  /** Guilds that exist; CheckPermissions on another answers 404 / 10004. */
  guilds: Set<string>;
  /** `guildId:userId` pairs that hold MANAGE_GUILD. */
  managers: Set<string>;
  /** Every CheckPermissions request received. */
  calls: permissions.CheckPermissionsRequest__Output[];
  close(): Promise<void>;
}

/** Starts a real gRPC server on a free port that answers CheckPermissions from in-memory sets. */
export async function startFakePermissions(): Promise<FakePermissions> {
  const guilds = new Set<string>();
  const managers = new Set<string>();
  const calls: permissions.CheckPermissionsRequest__Output[] = [];
  const proto = loadPermissionsProto().acs.permissions.v1;
  const server = createGrpcServer({
    logger: createLogger('fake-permissions', 'silent'),
    services: [
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: proto.PermissionsService.service,
        handlers: {
          async CheckPermissions(
            request: permissions.CheckPermissionsRequest__Output,
          ): Promise<permissions.CheckPermissionsResponse> {
            calls.push(request);
            if (!guilds.has(request.guild_id)) throw new UnknownResourceError(10004, 'Unknown Guild');
            const allowed = managers.has(`${request.guild_id}:${request.user_id}`);
            return { allowed, missing: allowed ? '0' : request.permissions, is_member: allowed };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  const client = new proto.PermissionsService(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    CLIENT_CHANNEL_OPTIONS,
  );
  return {
    client,
    guilds,
    managers,
    calls,
    async close() {
      client.close();
      server.server.forceShutdown();
    },
  };
}
