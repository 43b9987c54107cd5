import { applyImplicitPermissions } from './apply-implicit-permissions';
import { isThreadType } from './channel-types';
import { computeBasePermissions } from './compute-base-permissions';
import { computeChannelPermissions } from './compute-channel-permissions';
import type { Overwrite } from './guild-model';
import { applyTimeout } from './member-timeout';

/** Everything the decision needs, as the store loads it for one (guild, user, channel?). */
export interface PermissionContext {
  guildId: string;
  ownerId: string;
  everyonePermissions: bigint;
  /** The user's membership, or null when the user is not a member of the guild. */
  member: {
    userId: string;
    roleIds: string[];
    rolePermissions: bigint[];
    /** Until when the member is timed out (null or absent: not), weighed against `now`. */
    communicationDisabledUntil?: Date | null;
  } | null;
  /**
   * The time a timeout is weighed against (the store reads it from the database with the
   * rest, so tests move time in SQL). Without it, no timeout applies: only a context that
   * holds no timed-out member (built by hand) may leave it out.
   */
  now?: Date;
  /** The channel asked about, if any; a thread carries its parent's overwrites. */
  channel?: {
    type: number;
    overwrites: Overwrite[];
    parent: { overwrites: Overwrite[] } | null;
    /** The channel's id and its parent's (application command permissions need them). */
    id?: string;
    parentId?: string | null;
  };
}

/** The answer to "does the user have these permissions here". */
export interface PermissionDecision {
  allowed: boolean;
  /** The required bits the user lacks. */
  missing: bigint;
  isMember: boolean;
  /** The user's effective permissions (guild-level, or in the channel when one was given). */
  permissions: bigint;
}

/**
 * Decides whether a user holds every bit of `required`: guild-level permissions, then the
 * channel's overwrites (a thread uses its parent channel's, D:topics/permissions.mdx
 * §Inherited Permissions) and the implicit denials; last, a running timeout leaves only
 * VIEW_CHANNEL and READ_MESSAGE_HISTORY (guild-level too), unless the member is the owner
 * or an administrator. A non-member holds nothing.
 */
export function checkPermissions(context: PermissionContext, required: bigint): PermissionDecision {
  const { member } = context;
  if (!member) return { allowed: false, missing: required, isMember: false, permissions: 0n };
  const base = computeBasePermissions({
    isOwner: member.userId === context.ownerId,
    everyonePermissions: context.everyonePermissions,
    rolePermissions: member.rolePermissions,
  });
  let permissions = base;
  if (context.channel) {
    const isThread = isThreadType(context.channel.type);
    const overwrites = isThread ? (context.channel.parent?.overwrites ?? []) : context.channel.overwrites;
    permissions = computeChannelPermissions(base, {
      guildId: context.guildId,
      userId: member.userId,
      roleIds: member.roleIds,
      overwrites,
    });
    permissions = applyImplicitPermissions(permissions, isThread);
  }
  if (context.now) {
    const subject = { basePermissions: base, until: member.communicationDisabledUntil };
    permissions = applyTimeout(permissions, subject, context.now);
  }
  const missing = required & ~permissions;
  return { allowed: missing === 0n, missing, isMember: true, permissions };
}
