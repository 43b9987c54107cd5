import type { permissions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { renderChannel } from '../domain/render/render-channel';
import { renderGuild } from '../domain/render/render-guild';
import { renderRole } from '../domain/render/render-role';
import { validateCreateChannel } from '../domain/validate-create-channel';
import { validateCreateGuild } from '../domain/validate-create-guild';
import { validateUpdateGuild } from '../domain/validate-update-guild';
import { validateCreateRole, validateUpdateRole } from '../domain/validate-role-body';
import type { ChannelStore } from '../store/channel-store';
import type { GuildStore } from '../store/guild-store';
import type { PermissionContextStore } from '../store/permission-context-store';
import { visibleChannelIds } from '../domain/channel-visibility';

/** What the guild RPCs work with. */
export interface GuildHandlerDeps {
  guilds: GuildStore;
  channels: ChannelStore;
  contexts: PermissionContextStore;
}

/**
 * The RPCs that build a guild: the guild, its roles and its channels. Each reads its ids
 * and body, calls the domain and the store, and renders the answer; errors are
 * DiscordErrors and go to service-kit's one translation.
 */
export function createGuildHandlers({ guilds, channels, contexts }: GuildHandlerDeps) {
  return {
    async CreateGuild(
      request: permissions.CreateGuildRequest__Output,
    ): Promise<permissions.CreateGuildResponse> {
      const input = validateCreateGuild(parseJsonBody(request.body_json));
      const { guild, roles } = await guilds.createGuild(input);
      return { guild_json: JSON.stringify(renderGuild(guild, roles)) };
    },

    async GetGuild(request: permissions.GetGuildRequest__Output): Promise<permissions.GetGuildResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const viewerId = request.viewer_id ? readPathSnowflake('viewer_id', request.viewer_id) : undefined;
      const [{ guild, roles }, guildChannels, viewer, memberCount] = await Promise.all([
        guilds.getGuild(guildId),
        request.with_channels ? channels.listChannels(guildId) : undefined,
        request.with_channels && viewerId ? contexts.loadPermissionContext(guildId, viewerId) : undefined,
        request.with_channels ? guilds.countMembers(guildId) : 0,
      ]);
      return {
        member_count: memberCount,
        visible_channel_ids: guildChannels && viewer ? [...visibleChannelIds(viewer, guildChannels)] : [],
        viewer_communication_disabled_until: viewer?.member?.communicationDisabledUntil?.toISOString() ?? '',
        guild_json: JSON.stringify(renderGuild(guild, roles)),
        owner_id: guild.ownerId,
        channels_json: guildChannels
          ? JSON.stringify(guildChannels.map((channel) => renderChannel(channel, guild.ownerId)))
          : '',
      };
    },

    async UpdateGuild(
      request: permissions.UpdateGuildRequest__Output,
    ): Promise<permissions.UpdateGuildResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const input = validateUpdateGuild(parseJsonBody(request.body_json));
      const { guild, roles } = await guilds.updateGuild(guildId, input);
      return { guild_json: JSON.stringify(renderGuild(guild, roles)) };
    },

    async DeleteGuild(
      request: permissions.DeleteGuildRequest__Output,
    ): Promise<permissions.DeleteGuildResponse> {
      await guilds.deleteGuild(readPathSnowflake('guild_id', request.guild_id));
      return {};
    },

    async CreateRole(
      request: permissions.CreateRoleRequest__Output,
    ): Promise<permissions.CreateRoleResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const role = await guilds.createRole(guildId, validateCreateRole(parseJsonBody(request.body_json)));
      return { role_json: JSON.stringify(renderRole(role)) };
    },

    async UpdateRole(
      request: permissions.UpdateRoleRequest__Output,
    ): Promise<permissions.UpdateRoleResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const roleId = readPathSnowflake('role_id', request.role_id);
      const input = validateUpdateRole(parseJsonBody(request.body_json), roleId === guildId);
      const role = await guilds.updateRole(guildId, roleId, input);
      return { role_json: JSON.stringify(renderRole(role)) };
    },

    async CreateChannel(
      request: permissions.CreateChannelRequest__Output,
    ): Promise<permissions.CreateChannelResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const input = validateCreateChannel(parseJsonBody(request.body_json));
      const { channel, guildOwnerId } = await channels.createChannel(guildId, input);
      return { channel_json: JSON.stringify(renderChannel(channel, guildOwnerId)) };
    },
  };
}
