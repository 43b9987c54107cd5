import type { permissions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { requireBitSet } from '@acs/validation';
import type { CommandDirectory } from './clients/command-directory';
import { createCommandPermissionHandlers } from './command-permission-handlers';
import { checkPermissions } from './domain/check-permissions';
import { renderChannel } from './domain/render/render-channel';
import { renderGuild } from './domain/render/render-guild';
import { renderMember } from './domain/render/render-member';
import { renderRole } from './domain/render/render-role';
import { validateCreateChannel } from './domain/validate-create-channel';
import { validateCreateGuild } from './domain/validate-create-guild';
import { validatePutBotMember } from './domain/validate-put-bot-member';
import { validatePutMember } from './domain/validate-put-member';
import { validateCreateRole, validateUpdateRole } from './domain/validate-role-body';
import type { BotMemberStore } from './store/bot-member-store';
import type { ChannelStore } from './store/channel-store';
import type { CommandPermissionsStore } from './store/command-permissions-store';
import type { GuildStore } from './store/guild-store';
import { createListMemberGuildsHandler } from './handlers/list-member-guilds';
import type { ListMemberGuildsStore } from './store/list-member-guilds-store';
import type { MemberStore } from './store/member-store';
import type { PermissionContextStore } from './store/permission-context-store';

/** What the handlers work with. */
export interface HandlerDependencies {
  guilds: GuildStore;
  members: MemberStore;
  bots: BotMemberStore;
  channels: ChannelStore;
  contexts: PermissionContextStore;
  memberGuilds: ListMemberGuildsStore;
  commandPermissions: CommandPermissionsStore;
  commands: CommandDirectory;
}

/**
 * The handlers of acs.permissions.v1.PermissionsService: each reads its ids and body,
 * calls the domain and the store, and renders the answer. Errors are DiscordErrors and go
 * to service-kit's one translation.
 */
export function createHandlers(deps: HandlerDependencies) {
  const { guilds, members, bots, channels, contexts } = deps;
  return {
    ListMemberGuilds: createListMemberGuildsHandler(deps.memberGuilds),
    ...createCommandPermissionHandlers(deps),

    async CreateGuild(
      request: permissions.CreateGuildRequest__Output,
    ): Promise<permissions.CreateGuildResponse> {
      const input = validateCreateGuild(parseJsonBody(request.body_json));
      const { guild, roles } = await guilds.createGuild(input);
      return { guild_json: JSON.stringify(renderGuild(guild, roles)) };
    },

    async GetGuild(request: permissions.GetGuildRequest__Output): Promise<permissions.GetGuildResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const [{ guild, roles }, guildChannels] = await Promise.all([
        guilds.getGuild(guildId),
        request.with_channels ? channels.listChannels(guildId) : undefined,
      ]);
      return {
        guild_json: JSON.stringify(renderGuild(guild, roles)),
        owner_id: guild.ownerId,
        channels_json: guildChannels
          ? JSON.stringify(guildChannels.map((channel) => renderChannel(channel, guild.ownerId)))
          : '',
      };
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

    async PutMember(request: permissions.PutMemberRequest__Output): Promise<permissions.PutMemberResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const input = validatePutMember(parseJsonBody(request.body_json));
      const { member, created } = await members.putMember(guildId, userId, input);
      return { member_json: JSON.stringify(renderMember(member)), created };
    },

    async RemoveMember(
      request: permissions.RemoveMemberRequest__Output,
    ): Promise<permissions.RemoveMemberResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      await members.removeMember(guildId, readPathSnowflake('user_id', request.user_id));
      return {};
    },

    async PutBotMember(
      request: permissions.PutBotMemberRequest__Output,
    ): Promise<permissions.PutBotMemberResponse> {
      const { member, role, created } = await bots.putBotMember(validatePutBotMember(request));
      return {
        member_json: JSON.stringify(renderMember(member)),
        role_json: role ? JSON.stringify(renderRole(role)) : '',
        created,
      };
    },

    async RemoveBotMember(
      request: permissions.RemoveBotMemberRequest__Output,
    ): Promise<permissions.RemoveBotMemberResponse> {
      const removed = await bots.removeBotMember(
        readPathSnowflake('guild_id', request.guild_id),
        readPathSnowflake('application_id', request.application_id),
      );
      return { removed };
    },

    async CreateChannel(
      request: permissions.CreateChannelRequest__Output,
    ): Promise<permissions.CreateChannelResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const input = validateCreateChannel(parseJsonBody(request.body_json));
      const { channel, guildOwnerId } = await channels.createChannel(guildId, input);
      return { channel_json: JSON.stringify(renderChannel(channel, guildOwnerId)) };
    },

    async CheckPermissions(
      request: permissions.CheckPermissionsRequest__Output,
    ): Promise<permissions.CheckPermissionsResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const required = requireBitSet('permissions', request.permissions);
      const channelId =
        request.channel_id === '' ? undefined : readPathSnowflake('channel_id', request.channel_id);
      const decision = checkPermissions(
        await contexts.loadPermissionContext(guildId, userId, channelId),
        required,
      );
      return {
        allowed: decision.allowed,
        missing: decision.missing.toString(),
        is_member: decision.isMember,
      };
    },
  };
}
