import type { permissions } from '@acs/protos';
import type { RegisteredCommand } from '../domain/command-index';
import type { GuildGrant } from '../domain/guild-grant';
import { callPeer } from '@acs/service-kit';
import { checkServing } from './check-serving';

/** A page of `GET /users/@me/guilds`: ids '' when absent. */
export interface GuildPage {
  userId: string;
  before: string;
  after: string;
  limit: number;
  withCounts: boolean;
}

/** Where command permissions are read or written: the app's commands in one guild. */
export interface CommandPermissionsScope {
  applicationId: string;
  guildId: string;
  /** The commands command-registry has there (what permissions decides with; it calls no one). */
  commands: RegisteredCommand[];
}

/**
 * What api-gateway asks of permissions: guilds, roles, members and channels (the admin
 * API), membership, the guilds a user is in, and which commands a member may use.
 * Objects come back as permissions' JSON text, passed on as is. A failure permissions
 * answers with its own error rejects with that DiscordError; one in transport with 503
 * or 504.
 */
export interface PermissionsClient {
  /** Whether permissions reports SERVING on its health service. */
  isServing(deadlineMs: number): Promise<boolean>;
  /** Whether the user is a member of the guild; 404 (10004 Unknown Guild) when there is no such guild. */
  isMember(guildId: string, userId: string): Promise<boolean>;
  /** The ids of the commands the member may use in the guild (in `channelId` unless ''). */
  filterUsableCommands(
    guildId: string,
    channelId: string,
    userId: string,
    commands: RegisteredCommand[],
  ): Promise<string[]>;
  /**
   * The user's guilds, a page of them, as JSON text. With `grants` (a bot), the guilds are
   * those and its permissions there the granted ones on top of @everyone's.
   */
  listMemberGuilds(page: GuildPage, grants?: GuildGrant[]): Promise<string>;
  createGuild(bodyJson: string): Promise<string>;
  /** GET /admin/guilds/{id}: the guild with its roles as JSON text; 404 (10004) when there is none. */
  getGuild(guildId: string): Promise<string>;
  /** GET /admin/guilds/{id}/members: a page of members (user ids ascending, after `after` unless ''), JSON text. */
  listGuildMembers(guildId: string, after: string, limit: number): Promise<string>;
  /** Changes a guild (`name`, `attachment_size_limit`): the guild as JSON text. */
  updateGuild(guildId: string, bodyJson: string): Promise<string>;
  /** Deletes a guild with its roles, members and channels; 404 (10004 Unknown Guild) when there is none. */
  deleteGuild(guildId: string): Promise<void>;
  createRole(guildId: string, bodyJson: string): Promise<string>;
  updateRole(guildId: string, roleId: string, bodyJson: string): Promise<string>;
  /** Adds or updates a member; `created` when it was added. */
  putMember(
    guildId: string,
    userId: string,
    bodyJson: string,
  ): Promise<{ memberJson: string; created: boolean }>;
  removeMember(guildId: string, userId: string): Promise<void>;
  /** PATCH /guilds/{id}/members/{user_id} by the bot `actorId`: the member JSON (`user` with the id only). */
  modifyMember(guildId: string, userId: string, actorId: string, bodyJson: string): Promise<string>;
  createChannel(guildId: string, bodyJson: string): Promise<string>;
  /** PATCH /admin/channels/{id}: the channel JSON. */
  updateChannel(channelId: string, bodyJson: string): Promise<string>;
  /** DELETE /admin/channels/{id}. */
  deleteChannel(channelId: string): Promise<void>;
  /** GET /guilds/{id}/channels: a JSON array of the channels `userId` may view. */
  listGuildChannels(guildId: string, userId: string): Promise<string>;
  /** PUT /channels/{id}/permissions/{overwrite_id} by the bot `userId`. */
  editChannelPermission(
    channelId: string,
    overwriteId: string,
    userId: string,
    bodyJson: string,
  ): Promise<void>;
  /** DELETE /channels/{id}/permissions/{overwrite_id} by the bot `userId`. */
  deleteChannelPermission(channelId: string, overwriteId: string, userId: string): Promise<void>;
  /**
   * `POST /users/@me/channels` for `userId` (whose recipients exist: the caller checked):
   * the channel as JSON text without `recipients`, and everyone in it, the caller included.
   * `applicationId` when the caller is that application's bot.
   */
  openDmChannel(
    userId: string,
    bodyJson: string,
    applicationId?: string,
  ): Promise<{ channelJson: string; recipientIds: string[] }>;
  /** `PUT /channels/{id}/voice-status` for the bot user `userId` (permissions decides and announces it). */
  setVoiceChannelStatus(channelId: string, userId: string, bodyJson: string): Promise<void>;
  /** GET …/commands/permissions: the scope's permissions objects as a JSON array (`commands`: all of them). */
  listCommandPermissions(scope: CommandPermissionsScope): Promise<string>;
  /** GET …/commands/{command}/permissions (`commandId` the application id: the app-level entry). */
  getCommandPermissions(scope: CommandPermissionsScope, commandId: string): Promise<string>;
  /** PUT …/commands/{command}/permissions by the Bearer token's user `userId`: the permissions object. */
  updateCommandPermissions(
    scope: CommandPermissionsScope,
    commandId: string,
    userId: string,
    bodyJson: string,
  ): Promise<string>;
}

/** A registered command as permissions' requests carry it. */
function wireCommand(c: RegisteredCommand): permissions.RegisteredCommand {
  return {
    application_id: c.applicationId,
    command_id: c.commandId,
    name: c.name,
    default_member_permissions: c.defaultMemberPermissions,
    version: c.version,
    named_version: c.namedVersion,
  };
}

/** A scope's ids and commands as permissions' command permission requests carry them. */
function wireScope(scope: CommandPermissionsScope) {
  return {
    application_id: scope.applicationId,
    guild_id: scope.guildId,
    commands: scope.commands.map(wireCommand),
  };
}

/** The PermissionsClient over permissions' gRPC client. */
export function createPermissionsClient(client: permissions.PermissionsServiceClient): PermissionsClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),

    async isMember(guildId, userId) {
      // No bits and no channel: only membership is asked.
      const answer = await callPeer(client, client.CheckPermissions, {
        guild_id: guildId,
        user_id: userId,
        permissions: '0',
        channel_id: '',
      });
      return answer.is_member;
    },

    async filterUsableCommands(guildId, channelId, userId, commands) {
      const answer = await callPeer(client, client.FilterUsableCommands, {
        guild_id: guildId,
        channel_id: channelId,
        user_id: userId,
        commands: commands.map(wireCommand),
      });
      return answer.command_ids;
    },

    async listMemberGuilds(page, grants) {
      const answer = await callPeer(client, client.ListMemberGuilds, {
        user_id: page.userId,
        before: page.before,
        after: page.after,
        limit: page.limit,
        with_counts: page.withCounts,
        use_grants: grants !== undefined,
        grants: (grants ?? []).map((g) => ({ guild_id: g.guildId, permissions: g.permissions })),
      });
      return answer.guilds_json;
    },

    async createGuild(bodyJson) {
      return (await callPeer(client, client.CreateGuild, { body_json: bodyJson })).guild_json;
    },

    async getGuild(guildId) {
      return (
        await callPeer(client, client.GetGuild, { guild_id: guildId, with_channels: false, viewer_id: '' })
      ).guild_json;
    },

    async listGuildMembers(guildId, after, limit) {
      const answer = await callPeer(client, client.ListGuildMembers, {
        guild_id: guildId,
        user_ids: [],
        after,
        limit,
        nick_prefix: '',
      });
      return answer.members_json;
    },

    async setVoiceChannelStatus(channelId, userId, bodyJson) {
      await callPeer(client, client.SetVoiceChannelStatus, {
        channel_id: channelId,
        user_id: userId,
        body_json: bodyJson,
      });
    },

    async deleteGuild(guildId) {
      await callPeer(client, client.DeleteGuild, { guild_id: guildId });
    },

    async updateGuild(guildId, bodyJson) {
      return (await callPeer(client, client.UpdateGuild, { guild_id: guildId, body_json: bodyJson }))
        .guild_json;
    },

    async createRole(guildId, bodyJson) {
      return (await callPeer(client, client.CreateRole, { guild_id: guildId, body_json: bodyJson }))
        .role_json;
    },

    async updateRole(guildId, roleId, bodyJson) {
      const answer = await callPeer(client, client.UpdateRole, {
        guild_id: guildId,
        role_id: roleId,
        body_json: bodyJson,
      });
      return answer.role_json;
    },

    async putMember(guildId, userId, bodyJson) {
      const answer = await callPeer(client, client.PutMember, {
        guild_id: guildId,
        user_id: userId,
        body_json: bodyJson,
      });
      return { memberJson: answer.member_json, created: answer.created };
    },

    async modifyMember(guildId, userId, actorId, bodyJson) {
      const answer = await callPeer(client, client.ModifyMember, {
        guild_id: guildId,
        user_id: userId,
        actor_id: actorId,
        body_json: bodyJson,
      });
      return answer.member_json;
    },

    async removeMember(guildId, userId) {
      await callPeer(client, client.RemoveMember, { guild_id: guildId, user_id: userId });
    },

    async createChannel(guildId, bodyJson) {
      const answer = await callPeer(client, client.CreateChannel, { guild_id: guildId, body_json: bodyJson });
      return answer.channel_json;
    },

    async updateChannel(channelId, bodyJson) {
      const answer = await callPeer(client, client.UpdateChannel, {
        channel_id: channelId,
        body_json: bodyJson,
      });
      return answer.channel_json;
    },

    async deleteChannel(channelId) {
      await callPeer(client, client.DeleteChannel, { channel_id: channelId });
    },

    async listGuildChannels(guildId, userId) {
      const answer = await callPeer(client, client.ListGuildChannels, { guild_id: guildId, user_id: userId });
      return answer.channels_json;
    },

    async editChannelPermission(channelId, overwriteId, userId, bodyJson) {
      await callPeer(client, client.EditChannelPermission, {
        channel_id: channelId,
        overwrite_id: overwriteId,
        user_id: userId,
        body_json: bodyJson,
      });
    },

    async deleteChannelPermission(channelId, overwriteId, userId) {
      await callPeer(client, client.DeleteChannelPermission, {
        channel_id: channelId,
        overwrite_id: overwriteId,
        user_id: userId,
      });
    },

    async listCommandPermissions(scope) {
      return (await callPeer(client, client.ListCommandPermissions, wireScope(scope))).permissions_json;
    },

    async getCommandPermissions(scope, commandId) {
      const answer = await callPeer(client, client.GetCommandPermissions, {
        ...wireScope(scope),
        command_id: commandId,
      });
      return answer.permissions_json;
    },

    async updateCommandPermissions(scope, commandId, userId, bodyJson) {
      const answer = await callPeer(client, client.UpdateCommandPermissions, {
        ...wireScope(scope),
        command_id: commandId,
        user_id: userId,
        body_json: bodyJson,
      });
      return answer.permissions_json;
    },

    async openDmChannel(userId, bodyJson, applicationId) {
      const answer = await callPeer(client, client.OpenDmChannel, {
        user_id: userId,
        body_json: bodyJson,
        application_id: applicationId ?? '',
      });
      return { channelJson: answer.channel_json, recipientIds: answer.recipient_ids };
    },
  };
}
