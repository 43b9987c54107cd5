import * as grpc from '@grpc/grpc-js';
import type { permissions } from '@acs/protos';
import { callUnary, fromGrpcError, isServiceError } from '@acs/service-kit';

/** A guild object (with roles) and every channel and thread of it, as permissions renders them. */
export interface GuildSnapshot {
  guild: Record<string, unknown>;
  channels: Record<string, unknown>[];
}

/**
 * What the dispatcher asks of permissions: guilds, to embed in GUILD_CREATE and webhook
 * events. A failure permissions answers with its own error rejects with that
 * DiscordError; one in transport with 503 or 504.
 */
export interface PermissionsClient {
  /** A guild with its channels (one call), or undefined when it does not exist. */
  guild(guildId: string): Promise<GuildSnapshot | undefined>;
}

/** The PermissionsClient over permissions' gRPC client. */
export function createPermissionsClient(client: permissions.PermissionsServiceClient): PermissionsClient {
  return {
    async guild(guildId) {
      try {
        const answer = await callUnary(client, client.GetGuild, { guild_id: guildId, with_channels: true });
        return {
          guild: JSON.parse(answer.guild_json) as Record<string, unknown>,
          // Empty from a permissions replica older than `with_channels` (a rolling update).
          channels: answer.channels_json
            ? (JSON.parse(answer.channels_json) as Record<string, unknown>[])
            : [],
        };
      } catch (error) {
        if (isServiceError(error) && error.code === grpc.status.NOT_FOUND) return undefined;
        throw fromGrpcError(error) ?? error;
      }
    },
  };
}
