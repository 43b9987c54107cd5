import type { permissions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { holdsInChannel, visibleChannelIds } from '../domain/channel-visibility';
import { requireBitSet } from '@acs/validation';
import { isThreadType } from '../domain/channel-types';
import { renderChannel } from '../domain/render/render-channel';
import { validateChannelPermission } from '../domain/validate-channel-permission';
import { validateUpdateChannel } from '../domain/validate-update-channel';
import type { ChannelChangeStore } from '../store/channel-change-store';
import type { ChannelStore } from '../store/channel-store';
import type { PermissionContextStore } from '../store/permission-context-store';
import { MissingAccessError } from '@acs/discord-errors';

/** What the channel RPCs work with. */
export interface ChannelHandlerDeps {
  channels: ChannelStore;
  channelChanges: ChannelChangeStore;
  contexts: PermissionContextStore;
}

/**
 * The RPCs that read and change existing guild channels: the channels a member may view,
 * a bot's edits of one overwrite, and the admin API's channel changes.
 */
export function createChannelHandlers({ channels, channelChanges, contexts }: ChannelHandlerDeps) {
  return {
    /**
     * The guild's channels (not its threads: D:resources/guild.mdx §Get Guild Channels) the
     * user may view; the others are left out (D:topics/permissions.mdx §Channel Visibility).
     * 10004 for an unknown guild; 403 50001 when the user is not a member. With
     * `required_permissions`, only those where the user also holds these bits.
     */
    async ListGuildChannels(
      request: permissions.ListGuildChannelsRequest__Output,
    ): Promise<permissions.ListGuildChannelsResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const [viewer, guildChannels] = await Promise.all([
        contexts.loadPermissionContext(guildId, userId),
        channels.listChannels(guildId),
      ]);
      if (!viewer.member) throw new MissingAccessError();
      const visible = visibleChannelIds(viewer, guildChannels);
      const required =
        request.required_permissions === ''
          ? 0n
          : requireBitSet('required_permissions', request.required_permissions);
      const byId = new Map(guildChannels.map((c) => [c.id, c]));
      const shown = guildChannels.filter(
        (c) =>
          !isThreadType(c.type) &&
          visible.has(c.id) &&
          (required === 0n || holdsInChannel(viewer, c, byId, required)),
      );
      return { channels_json: JSON.stringify(shown.map((c) => renderChannel(c, viewer.ownerId))) };
    },

    async EditChannelPermission(
      request: permissions.EditChannelPermissionRequest__Output,
    ): Promise<permissions.EditChannelPermissionResponse> {
      const channelId = readPathSnowflake('channel_id', request.channel_id);
      const overwriteId = readPathSnowflake('overwrite_id', request.overwrite_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const overwrite = validateChannelPermission(parseJsonBody(request.body_json), overwriteId);
      await channelChanges.putOverwrite(channelId, overwrite, userId);
      return {};
    },

    async DeleteChannelPermission(
      request: permissions.DeleteChannelPermissionRequest__Output,
    ): Promise<permissions.DeleteChannelPermissionResponse> {
      const channelId = readPathSnowflake('channel_id', request.channel_id);
      const overwriteId = readPathSnowflake('overwrite_id', request.overwrite_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      await channelChanges.deleteOverwrite(channelId, overwriteId, userId);
      return {};
    },

    async UpdateChannel(
      request: permissions.UpdateChannelRequest__Output,
    ): Promise<permissions.UpdateChannelResponse> {
      const channelId = readPathSnowflake('channel_id', request.channel_id);
      const input = validateUpdateChannel(parseJsonBody(request.body_json));
      const { channel, guildOwnerId } = await channelChanges.updateChannel(channelId, input);
      return { channel_json: JSON.stringify(renderChannel(channel, guildOwnerId)) };
    },

    async DeleteChannel(
      request: permissions.DeleteChannelRequest__Output,
    ): Promise<permissions.DeleteChannelResponse> {
      await channelChanges.deleteChannel(readPathSnowflake('channel_id', request.channel_id));
      return {};
    },
  };
}
