import * as grpc from '@grpc/grpc-js';
import { loadPermissionsProto, type permissions } from '@acs/protos';
import { CLIENT_CHANNEL_OPTIONS, createGrpcServer, createLogger } from '@acs/service-kit';
import { DiscordError, UnknownResourceError } from '@acs/discord-errors';
import { createPermissionsClient, type PermissionsClient } from '../../src/clients/permissions-client';

/** A bot member as the fake keeps it: its managed role's name and permissions ("0": none). */
export interface FakeBotMember {
  roleName: string;
  permissions: string;
}

/** A PermissionsService stand-in at the network edge: which users manage which guilds, which bots are in. */
export interface FakePermissions {
  /** oauth's client of the fake, over real gRPC. */
  client: PermissionsClient;
  /** Guilds that exist; CheckPermissions and PutBotMember on another answer 404 / 10004. */
  guilds: Set<string>;
  /** `guildId:userId` pairs that hold MANAGE_GUILD. */
  managers: Set<string>;
  /** Every CheckPermissions request received. */
  calls: permissions.CheckPermissionsRequest__Output[];
  /** Bots in guilds, by `guildId:applicationId`, as PutBotMember and RemoveBotMember leave them. */
  botMembers: Map<string, FakeBotMember>;
  /** While true, PutBotMember and RemoveBotMember fail (500) and change nothing. */
  failBotMembers: boolean;
  close(): Promise<void>;
}

/** Starts a real gRPC server on a free port that answers from in-memory sets. */
export async function startFakePermissions(): Promise<FakePermissions> {
  const guilds = new Set<string>();
  const managers = new Set<string>();
  const calls: permissions.CheckPermissionsRequest__Output[] = [];
  const botMembers = new Map<string, FakeBotMember>();
  const state = { failBotMembers: false };
  const failIfAsked = () => {
    if (state.failBotMembers) throw new DiscordError(500, 0, 'permissions is failing on purpose');
  };
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
          async PutBotMember(
            request: permissions.PutBotMemberRequest__Output,
          ): Promise<permissions.PutBotMemberResponse> {
            failIfAsked();
            if (!guilds.has(request.guild_id)) throw new UnknownResourceError(10004, 'Unknown Guild');
            const key = `${request.guild_id}:${request.application_id}`;
            const created = !botMembers.has(key);
            const roleName = botMembers.get(key)?.roleName ?? request.application_name;
            botMembers.set(key, { roleName, permissions: request.permissions });
            return { member_json: JSON.stringify({ user: { id: request.application_id } }), created };
          },
          async RemoveBotMember(
            request: permissions.RemoveBotMemberRequest__Output,
          ): Promise<permissions.RemoveBotMemberResponse> {
            failIfAsked();
            return { removed: botMembers.delete(`${request.guild_id}:${request.application_id}`) };
          },
          async RenameManagedRoles(
            request: permissions.RenameManagedRolesRequest__Output,
          ): Promise<permissions.RenameManagedRolesResponse> {
            let renamed = 0;
            for (const [key, bot] of botMembers) {
              if (!key.endsWith(`:${request.application_id}`) || bot.permissions === '0') continue;
              botMembers.set(key, { ...bot, roleName: request.name });
              renamed += 1;
            }
            return { renamed };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  const grpcClient = new proto.PermissionsService(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    CLIENT_CHANNEL_OPTIONS,
  );
  return {
    client: createPermissionsClient(grpcClient),
    guilds,
    managers,
    calls,
    botMembers,
    get failBotMembers() {
      return state.failBotMembers;
    },
    set failBotMembers(value: boolean) {
      state.failBotMembers = value;
    },
    async close() {
      grpcClient.close();
      server.server.forceShutdown();
    },
  };
}
