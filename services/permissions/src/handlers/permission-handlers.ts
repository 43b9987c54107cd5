import type { permissions } from '@acs/protos';
import { fieldError, MissingPermissionsError, readPathSnowflake } from '@acs/discord-errors';
import { requireBitSet } from '@acs/validation';
import { ChannelType } from '../domain/channel-types';
import { checkPermissions } from '../domain/check-permissions';
import { PERMISSION_FLAGS } from '../domain/permission-flags';
import { UnknownChannelError } from '../domain/permissions-errors';
import { renderChannel } from '../domain/render/render-channel';
import type { ChannelStore } from '../store/channel-store';
import type { DmChannelStore } from '../store/dm-channel-store';
import { DM_USER_PERMISSIONS } from '../domain/dm/dm-permissions';
import { renderMyGuild } from '../domain/render/render-my-guild';
import type { ListMemberGuildsStore } from '../store/list-member-guilds-store';
import type { PermissionContextStore } from '../store/permission-context-store';
import type { GuildPlaceStore } from '../store/guild-place-store';
import { permissionContextOf } from '../domain/invocation/guild-place';
import { renderMessageMember } from '../domain/render/render-member';

/** Role mentions a message may carry (D:resources/message.mdx §Allowed Mentions: 100 roles). */
const MAX_MENTIONED_ROLES = 100;

/** What the permission RPCs work with. */
export interface PermissionHandlerDeps {
  contexts: PermissionContextStore;
  /** The place of a channel in one statement (DescribeChannelAccess `with_member`). */
  places: GuildPlaceStore;
  memberGuilds: ListMemberGuildsStore;
  channels: ChannelStore;
  dmChannels: DmChannelStore;
}

/** What linking a lobby to a channel takes there (D:discord-social-sdk/development-guides/linked-channels.mdx). */
const LINK_CHANNEL_PERMISSIONS =
  PERMISSION_FLAGS.MANAGE_CHANNELS | PERMISSION_FLAGS.VIEW_CHANNEL | PERMISSION_FLAGS.SEND_MESSAGES;

/** Default and largest page of `GET /users/@me/guilds` (D:resources/user.mdx). */
const MAX_GUILDS_PAGE = 200;

/**
 * The RPCs that answer with a user's computed permissions: `CheckPermissions` (does the
 * user hold these bits, here) and `ListMemberGuilds` (`GET /users/@me/guilds`, with
 * grants: a bot's installations, whose bits count as one more role of the user's).
 */
export function createPermissionHandlers({
  contexts,
  memberGuilds,
  channels,
  dmChannels,
  places,
}: PermissionHandlerDeps) {
  /**
   * DescribeChannelAccess `with_member` (Create Message): the place read in one statement
   * (the guild with its roles, the user's member, the channel), the user's permissions
   * computed on it as loadPermissionContext would, and the partial member MESSAGE_CREATE
   * carries. A DM is answered as without it.
   */
  async function describeWithMember(
    channelId: string,
    userId: string,
    rawRoleIds: readonly string[],
  ): Promise<permissions.DescribeChannelAccessResponse> {
    const roleIds = rawRoleIds.slice(0, MAX_MENTIONED_ROLES).map((id) => readPathSnowflake('role_ids', id));
    const channel = await channels.getChannel(channelId);
    if (!channel) {
      const dm = await dmChannels.getDmChannel(channelId);
      if (!dm) throw new UnknownChannelError();
      const isRecipient = dm.recipientIds.includes(userId);
      return {
        guild_id: '',
        is_member: isRecipient,
        permissions: (isRecipient ? DM_USER_PERMISSIONS : 0n).toString(),
        recipient_ids: dm.recipientIds,
        member_json: '',
        known_role_ids: [],
      };
    }
    const place = await places.loadGuildPlace(channel.guildId, [userId], [channelId]);
    const at = place?.channels.get(channelId);
    if (!place || !at) throw new UnknownChannelError();
    const decision = checkPermissions(permissionContextOf(place, userId, at), 0n);
    const member = place.members.get(userId);
    return {
      guild_id: channel.guildId,
      is_member: decision.isMember,
      permissions: decision.permissions.toString(),
      recipient_ids: [],
      member_json: member ? JSON.stringify(renderMessageMember(member)) : '',
      known_role_ids: roleIds.filter((id) => id !== channel.guildId && place.roles.has(id)),
      member_role_ids: member?.roleIds ?? [],
    };
  }

  return {
    async DescribeChannelAccess(
      request: permissions.DescribeChannelAccessRequest__Output,
    ): Promise<permissions.DescribeChannelAccessResponse> {
      const channelId = readPathSnowflake('channel_id', request.channel_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      if (request.with_member) return describeWithMember(channelId, userId, request.role_ids);
      const channel = await channels.getChannel(channelId);
      if (channel) {
        const context = await contexts.loadPermissionContext(channel.guildId, userId, channelId);
        const decision = checkPermissions(context, 0n);
        return {
          guild_id: channel.guildId,
          is_member: decision.isMember,
          permissions: decision.permissions.toString(),
          recipient_ids: [],
          member_role_ids: context.member?.roleIds ?? [],
        };
      }
      const dm = await dmChannels.getDmChannel(channelId);
      if (!dm) throw new UnknownChannelError();
      const isRecipient = dm.recipientIds.includes(userId);
      return {
        guild_id: '',
        is_member: isRecipient,
        permissions: (isRecipient ? DM_USER_PERMISSIONS : 0n).toString(),
        recipient_ids: dm.recipientIds,
      };
    },

    async DescribeLinkableChannel(
      request: permissions.DescribeLinkableChannelRequest__Output,
    ): Promise<permissions.DescribeLinkableChannelResponse> {
      const channelId = readPathSnowflake('channel_id', request.channel_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const channel = await channels.getChannel(channelId);
      if (!channel) throw new UnknownChannelError();
      const context = await contexts.loadPermissionContext(channel.guildId, userId, channelId);
      // Who may not see the channel learns nothing of its type.
      if (!checkPermissions(context, LINK_CHANNEL_PERMISSIONS).allowed) throw new MissingPermissionsError();
      if (channel.type !== ChannelType.GUILD_TEXT) {
        throw fieldError('channel_id', 'CHANNEL_TYPE_INVALID', 'Only guild text channels can be linked');
      }
      return {
        channel_json: JSON.stringify(renderChannel(channel, context.ownerId)),
        guild_id: channel.guildId,
      };
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

    async ListMemberGuilds(
      request: permissions.ListMemberGuildsRequest__Output,
    ): Promise<permissions.ListMemberGuildsResponse> {
      const userId = readPathSnowflake('user_id', request.user_id);
      const granted = new Map(
        request.grants.map((g) => [
          readPathSnowflake('guild_id', g.guild_id),
          requireBitSet('permissions', g.permissions),
        ]),
      );
      const rows = await memberGuilds.listMemberGuilds({
        userId,
        guildIds: request.use_grants ? [...granted.keys()] : null,
        before: request.before === '' ? null : readPathSnowflake('before', request.before),
        after: request.after === '' ? null : readPathSnowflake('after', request.after),
        limit: request.limit >= 1 && request.limit <= MAX_GUILDS_PAGE ? request.limit : MAX_GUILDS_PAGE,
        withCounts: request.with_counts,
      });
      const guilds = rows.map((row) => renderMyGuild(row, userId, granted.get(row.id), request.with_counts));
      return { guilds_json: JSON.stringify(guilds) };
    },
  };
}
