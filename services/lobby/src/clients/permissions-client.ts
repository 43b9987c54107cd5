import type { permissions } from '@acs/protos';
import { callPeer } from '@acs/service-kit';
import type { JsonRecord } from '../domain/lobby-objects';

/** A guild channel a lobby may link to, as permissions describes it. */
export interface LinkableChannel {
  channelId: string;
  guildId: string;
  channel: JsonRecord;
}

/**
 * What lobby asks of permissions: the guild text channel `channelId`, which `userId` may
 * manage (MANAGE_CHANNELS, VIEW_CHANNEL and SEND_MESSAGES there), for channel linking.
 * Permissions answers 404 / 10003 for an unknown channel, 400 / 50035 for one that is not
 * a guild text channel or is age-restricted, 403 / 50013 when the user lacks a permission.
 */
export interface PermissionsClient {
  linkableChannel(channelId: string, userId: string): Promise<LinkableChannel>;
}

/** The PermissionsClient over permissions' gRPC client. */
export function createPermissionsClient(client: permissions.PermissionsServiceClient): PermissionsClient {
  return {
    async linkableChannel(channelId, userId) {
      const answer = await callPeer<
        permissions.DescribeLinkableChannelRequest,
        permissions.DescribeLinkableChannelResponse__Output
      >(client, client.DescribeLinkableChannel, { channel_id: channelId, user_id: userId });
      return { channelId, guildId: answer.guild_id, channel: JSON.parse(answer.channel_json) as JsonRecord };
    },
  };
}
