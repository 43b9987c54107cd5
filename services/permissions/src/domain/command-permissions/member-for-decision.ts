import { isThreadType } from '../channel-types';
import { checkPermissions, type PermissionContext } from '../check-permissions';
import { computeBasePermissions } from '../compute-base-permissions';
import { hasPermissions, PERMISSION_FLAGS } from '../permission-flags';
import type { CommandDecisionInput } from './decide-command-permission';

/** The member part of a command decision, from the context the store loaded (null for a non-member). */
export function memberForDecision(context: PermissionContext): CommandDecisionInput['member'] {
  const { member } = context;
  if (!member) return null;
  const base = computeBasePermissions({
    isOwner: member.userId === context.ownerId,
    everyonePermissions: context.everyonePermissions,
    rolePermissions: member.rolePermissions,
  });
  return {
    userId: member.userId,
    roleIds: member.roleIds,
    isAdministrator: hasPermissions(base, PERMISSION_FLAGS.ADMINISTRATOR),
    permissions: checkPermissions(context, 0n).permissions,
  };
}

/** The channel whose command overwrites apply: the channel itself, or a thread's parent. */
export function commandPermissionChannelId(context: PermissionContext): string | undefined {
  const channel = context.channel;
  if (!channel) return undefined;
  return isThreadType(channel.type) ? (channel.parentId ?? undefined) : channel.id;
}
