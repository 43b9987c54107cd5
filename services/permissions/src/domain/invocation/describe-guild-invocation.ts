import type { GuildCommandPermissions } from '../command-permissions/command-permission-model';
import { decideForCommand } from '../command-permissions/decide-for-command';
import type { RegisteredCommand } from '../command-permissions/registered-command';
import { UnknownChannelError } from '../permissions-errors';
import { renderChannel } from '../render/render-channel';
import { renderGuild } from '../render/render-guild';
import { renderInvocationMember, renderResolvedMember } from '../render/render-invocation-member';
import { renderResolvedChannel } from '../render/render-resolved-channel';
import { renderRole } from '../render/render-role';
import {
  everyonePermissionsIn,
  permissionContextOf,
  permissionsIn,
  type GuildPlace,
  type PlaceChannel,
} from './guild-place';
import type { InvocationDescription } from './invocation-description';

/** An invocation in a guild, with everything loaded. */
export interface GuildInvocationInput {
  place: GuildPlace;
  channelId: string;
  userId: string;
  /** The application, whose bot user has the same id. */
  applicationId: string;
  /** The command and the app's command permission entries that still apply; null: nothing to decide. */
  command: { registered: RegisteredCommand; entries: readonly GuildCommandPermissions[] } | null;
  resolve: { userIds: readonly string[]; roleIds: readonly string[]; channelIds: readonly string[] };
}

/**
 * Describes an invocation in a guild channel: the channel (404 / 10003 when it is not one of
 * the guild's), the guild, the invoker's member and permissions there, the app's (its bot
 * member's, or `@everyone`'s for a bot that is not a member), the command decision of
 * `CheckCommandPermission` (the same function), and the members, roles and channels the
 * options name, each member and channel with the permissions there. Pure: the store has
 * loaded the place in one statement.
 */
export function describeGuildInvocation(input: GuildInvocationInput): InvocationDescription {
  const { place, userId, applicationId } = input;
  const at = place.channels.get(input.channelId);
  if (!at) throw new UnknownChannelError();
  const { guild } = place;

  const appPermissionsIn = (where: PlaceChannel) =>
    place.members.has(applicationId)
      ? permissionsIn(place, applicationId, where)
      : everyonePermissionsIn(place, where);
  const userPermissions = permissionsIn(place, userId, at);
  const invoker = place.members.get(userId);
  const decision = input.command
    ? decideForCommand(
        permissionContextOf(place, userId, at),
        input.command.registered,
        input.command.entries,
      )
    : null;

  const resolvedMembers: Record<string, unknown> = {};
  for (const id of input.resolve.userIds) {
    const member = place.members.get(id);
    if (member) resolvedMembers[id] = renderResolvedMember(member, permissionsIn(place, id, at));
  }
  const resolvedRoles: Record<string, unknown> = {};
  for (const id of input.resolve.roleIds) {
    const role = place.roles.get(id);
    if (role) resolvedRoles[id] = renderRole(role);
  }
  const resolvedChannels: Record<string, unknown> = {};
  for (const id of input.resolve.channelIds) {
    const where = place.channels.get(id);
    if (!where) continue;
    resolvedChannels[id] = renderResolvedChannel(
      where.channel,
      guild.ownerId,
      permissionsIn(place, userId, where),
      appPermissionsIn(where),
    );
  }

  return {
    channel: renderChannel(at.channel, guild.ownerId),
    guild: renderGuild(guild, [...place.roles.values()]),
    member: invoker ? renderInvocationMember(invoker, userPermissions) : null,
    userPermissions,
    appPermissions: appPermissionsIn(at),
    botIsMember: place.members.has(applicationId),
    allowed: decision ? decision.allowed : true,
    reason: decision ? decision.reason : '',
    resolvedMembers,
    resolvedRoles,
    resolvedChannels,
    recipientIds: [],
    attachmentSizeLimit: guild.attachmentSizeLimit,
  };
}
