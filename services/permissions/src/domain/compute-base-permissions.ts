import { ALL_PERMISSIONS, hasPermissions, PERMISSION_FLAGS } from './permission-flags';

/** What the guild-level computation needs to know about a member. */
export interface BasePermissionsInput {
  /** Whether the member owns the guild. */
  isOwner: boolean;
  /** The permissions of the guild's @everyone role. */
  everyonePermissions: bigint;
  /** The permissions of each of the member's other roles. */
  rolePermissions: readonly bigint[];
}

/**
 * A member's guild-level permissions, as Discord's `compute_base_permissions`
 * (D:topics/permissions.mdx §Permission Overwrites): the owner has everything; else
 * @everyone's permissions OR every role's; ADMINISTRATOR among them means everything.
 */
export function computeBasePermissions(input: BasePermissionsInput): bigint {
  if (input.isOwner) return ALL_PERMISSIONS;
  let permissions = input.everyonePermissions;
  for (const rolePermissions of input.rolePermissions) permissions |= rolePermissions;
  if (hasPermissions(permissions, PERMISSION_FLAGS.ADMINISTRATOR)) return ALL_PERMISSIONS;
  return permissions;
}
