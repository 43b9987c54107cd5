import type { permissions } from '@acs/protos';
import { callPeer } from '@acs/service-kit';
import type {
  InvocationPlace,
  InvocationPlaceQuery,
  JsonRecord,
} from '../domain/invocation/invocation-facts';
import type { ChannelAccess } from '../domain/pins';
import type { GuildFacts, RuleManager } from '../domain/automod';

/**
 * What interactions asks of permissions: the place of an invocation (channel, guild, the
 * invoker's member and permissions, the app's permissions, the command decision) and the
 * members, roles and channels its options name. A failure permissions answers with its
 * own error rejects with that DiscordError (404 / 10003 for a channel the user cannot be
 * in); one in transport with 503 or 504.
 */
export interface PermissionsClient {
  describeInvocationContext(query: InvocationPlaceQuery): Promise<InvocationPlace>;
  /** A user's place in a channel (guild channel or DM): 404 / 10003 for an unknown channel. */
  describeChannelAccess(channelId: string, userId: string): Promise<ChannelAccess>;
  /**
   * The same, with the user's partial member (in a guild) and which of `roleIds` are roles
   * of the channel's guild: what Create Message needs for MESSAGE_CREATE and `mention_roles`.
   */
  describeSenderAccess(channelId: string, userId: string, roleIds: readonly string[]): Promise<SenderAccess>;
  /**
   * The ids of the guild's channels where the user holds VIEW_CHANNEL and `required`:
   * 404 / 10004 for an unknown guild, 403 / 50001 when the user is not a member.
   */
  listChannelsWith(guildId: string, userId: string, required: bigint): Promise<string[]>;
  /**
   * Which of `permissions` (guild level) a user holds in a guild and whether they are a
   * member: 404 / 10004 for an unknown guild.
   */
  ruleManager(guildId: string, userId: string, permissions: bigint): Promise<RuleManager>;
  /** A guild's role ids and its channels' types (AutoMod's exempt and alert ids): 404 / 10004 when unknown. */
  guildFacts(guildId: string): Promise<GuildFacts>;
  /**
   * AutoMod's TIMEOUT action: the member is timed out until `until` (ModifyMember without
   * an actor); 404 / 10007 when they are no member, 403 / 50013 for the owner or an administrator.
   */
  timeOutMember(guildId: string, userId: string, until: Date): Promise<void>;
}

/** A sender's access to a channel, with its member and the guild roles its content names. */
export interface SenderAccess {
  access: ChannelAccess;
  /** The partial member MESSAGE_CREATE carries; null in a DM or for a non-member. */
  member: JsonRecord | null;
  knownRoleIds: string[];
}

/** A JSON object field of the answer; empty text is an empty map. */
function parseMap(text: string): Record<string, JsonRecord> {
  return text === '' ? {} : (JSON.parse(text) as Record<string, JsonRecord>);
}

/** A DescribeChannelAccess answer as a ChannelAccess. */
function channelAccessOf(answer: permissions.DescribeChannelAccessResponse__Output): ChannelAccess {
  return {
    guildId: answer.guild_id === '' ? null : answer.guild_id,
    isMember: answer.is_member,
    permissions: BigInt(answer.permissions === '' ? '0' : answer.permissions),
    recipientIds: answer.recipient_ids,
    roleIds: answer.member_role_ids,
  };
}

/** The PermissionsClient over permissions' gRPC client. */
export function createPermissionsClient(client: permissions.PermissionsServiceClient): PermissionsClient {
  return {
    async listChannelsWith(guildId, userId, required) {
      const answer = await callPeer<
        permissions.ListGuildChannelsRequest,
        permissions.ListGuildChannelsResponse__Output
      >(client, client.ListGuildChannels, {
        guild_id: guildId,
        user_id: userId,
        required_permissions: required.toString(),
      });
      return (JSON.parse(answer.channels_json) as { id: string }[]).map((channel) => channel.id);
    },

    async describeSenderAccess(channelId, userId, roleIds) {
      const answer = await callPeer<
        permissions.DescribeChannelAccessRequest,
        permissions.DescribeChannelAccessResponse__Output
      >(client, client.DescribeChannelAccess, {
        channel_id: channelId,
        user_id: userId,
        with_member: true,
        role_ids: [...roleIds],
      });
      return {
        access: channelAccessOf(answer),
        member: answer.member_json === '' ? null : (JSON.parse(answer.member_json) as JsonRecord),
        knownRoleIds: answer.known_role_ids,
      };
    },

    async describeChannelAccess(channelId, userId) {
      const answer = await callPeer<
        permissions.DescribeChannelAccessRequest,
        permissions.DescribeChannelAccessResponse__Output
      >(client, client.DescribeChannelAccess, { channel_id: channelId, user_id: userId });
      return channelAccessOf(answer);
    },

    async ruleManager(guildId, userId, wanted) {
      const answer = await callPeer<
        permissions.CheckPermissionsRequest,
        permissions.CheckPermissionsResponse__Output
      >(client, client.CheckPermissions, {
        guild_id: guildId,
        user_id: userId,
        permissions: wanted.toString(),
      });
      const missing = BigInt(answer.missing === '' ? '0' : answer.missing);
      return { isMember: answer.is_member, permissions: wanted & ~missing };
    },

    async timeOutMember(guildId, userId, until) {
      await callPeer(client, client.ModifyMember, {
        guild_id: guildId,
        user_id: userId,
        actor_id: '',
        body_json: JSON.stringify({ communication_disabled_until: until.toISOString() }),
      });
    },

    async guildFacts(guildId) {
      const answer = await callPeer<permissions.GetGuildRequest, permissions.GetGuildResponse__Output>(
        client,
        client.GetGuild,
        { guild_id: guildId, with_channels: true },
      );
      const guild = JSON.parse(answer.guild_json) as { roles?: { id: string }[] };
      const channels = JSON.parse(answer.channels_json || '[]') as { id: string; type: number }[];
      return {
        roleIds: new Set((guild.roles ?? []).map((role) => role.id)),
        channelTypes: new Map(channels.map((channel) => [channel.id, channel.type])),
      };
    },

    async describeInvocationContext(query) {
      const answer = await callPeer<
        permissions.DescribeInvocationContextRequest,
        permissions.DescribeInvocationContextResponse__Output
      >(client, client.DescribeInvocationContext, {
        channel_id: query.channelId,
        guild_id: query.guildId ?? '',
        user_id: query.userId,
        application_id: query.applicationId,
        command: {
          application_id: query.command.applicationId,
          command_id: query.command.commandId,
          name: query.command.name,
          default_member_permissions: query.command.defaultMemberPermissions ?? '',
          version: query.command.version,
          named_version: query.command.namedVersion,
        },
        resolve_user_ids: query.resolveUserIds,
        resolve_role_ids: query.resolveRoleIds,
        resolve_channel_ids: query.resolveChannelIds,
      });
      return {
        channel: JSON.parse(answer.channel_json) as JsonRecord,
        guild: answer.guild_json === '' ? null : (JSON.parse(answer.guild_json) as JsonRecord),
        member: answer.member_json === '' ? null : (JSON.parse(answer.member_json) as JsonRecord),
        userPermissions: answer.user_permissions,
        appPermissions: answer.app_permissions,
        botIsMember: answer.bot_is_member,
        allowed: answer.allowed,
        reason: answer.reason,
        resolvedMembers: parseMap(answer.resolved_members_json),
        resolvedRoles: parseMap(answer.resolved_roles_json),
        resolvedChannels: parseMap(answer.resolved_channels_json),
        recipientIds: answer.recipient_ids,
        attachmentSizeLimit:
          Number(answer.attachment_size_limit) > 0 ? Number(answer.attachment_size_limit) : null,
      };
    },
  };
}
