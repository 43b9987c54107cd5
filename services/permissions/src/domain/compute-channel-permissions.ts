import type { Overwrite } from './guild-model';
import { ALL_PERMISSIONS, hasPermissions, NO_PERMISSIONS, PERMISSION_FLAGS } from './permission-flags';

/** Who the permissions are computed for, and the overwrites of the channel in question. */
export interface ChannelPermissionsInput {
  guildId: string;
  userId: string;
  /** The member's roles, @everyone excluded. */
  roleIds: readonly string[];
  /** The channel's overwrites; for a thread, its parent channel's. */
  overwrites: readonly Overwrite[];
}

/**
 * A member's permissions in a channel, as Discord's `compute_overwrites`
 * (D:topics/permissions.mdx §Permission Overwrites), in the documented order: ADMINISTRATOR
 * skips overwrites; then the @everyone overwrite (deny, then allow); then all of the
 * member's role overwrites aggregated (deny all, then allow all, so role order does not
 * matter); then the member's own overwrite (deny, then allow).
 */
export function computeChannelPermissions(basePermissions: bigint, input: ChannelPermissionsInput): bigint {
  if (hasPermissions(basePermissions, PERMISSION_FLAGS.ADMINISTRATOR)) return ALL_PERMISSIONS;
  const roleOverwrites = new Map<string, Overwrite>();
  let memberOverwrite: Overwrite | undefined;
  for (const overwrite of input.overwrites) {
    if (overwrite.type === 0) roleOverwrites.set(overwrite.id, overwrite);
    else if (overwrite.id === input.userId) memberOverwrite = overwrite;
  }

  let permissions = basePermissions;
  // The @everyone role has the guild's id.
  const everyone = roleOverwrites.get(input.guildId);
  if (everyone) permissions = (permissions & ~everyone.deny) | everyone.allow;

  let allow = NO_PERMISSIONS;
  let deny = NO_PERMISSIONS;
  for (const roleId of input.roleIds) {
    const overwrite = roleId === input.guildId ? undefined : roleOverwrites.get(roleId);
    if (!overwrite) continue;
    allow |= overwrite.allow;
    deny |= overwrite.deny;
  }
  permissions = (permissions & ~deny) | allow;

  if (memberOverwrite) permissions = (permissions & ~memberOverwrite.deny) | memberOverwrite.allow;
  return permissions;
}
