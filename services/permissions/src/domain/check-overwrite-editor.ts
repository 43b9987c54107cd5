import { MissingAccessError, MissingPermissionsError } from '@acs/discord-errors';
import { checkPermissions, type PermissionContext } from './check-permissions';
import type { Channel } from './guild-model';
import { hasPermissions, namePermissions, PERMISSION_FLAGS } from './permission-flags';
import type { ViewerContext } from './channel-visibility';

/** The channel whose overwrites change, with its parent category when it has one. */
export interface OverwriteEditTarget {
  channel: Channel;
  parent: Channel | null;
}

function permissionsIn(editor: ViewerContext, channel: Channel): bigint {
  const context: PermissionContext = {
    ...editor,
    channel: { type: channel.type, overwrites: channel.overwrites, parent: null },
  };
  return checkPermissions(context, 0n).permissions;
}

/**
 * Whether `editor` may set (or, with `bits` 0, delete) an overwrite of the channel
 * (D:resources/channel.mdx §Edit Channel Permissions): a member who does not view the
 * channel gets 403 / 50001; MANAGE_ROLES in the channel is required (50013 naming it);
 * then only the bits the editor has in the guild, or in the parent category when there is
 * one, may be allowed or denied (50013 naming the others), unless an overwrite of this
 * channel that applies to the editor allows MANAGE_ROLES. The owner and administrators may
 * do anything.
 */
export function checkOverwriteEditor(editor: ViewerContext, target: OverwriteEditTarget, bits: bigint): void {
  const { member } = editor;
  if (!member) throw new MissingAccessError();
  const inChannel = permissionsIn(editor, target.channel);
  if (!hasPermissions(inChannel, PERMISSION_FLAGS.VIEW_CHANNEL)) throw new MissingAccessError();
  if (!hasPermissions(inChannel, PERMISSION_FLAGS.MANAGE_ROLES)) {
    throw new MissingPermissionsError(['MANAGE_ROLES']);
  }
  const base = checkPermissions(editor, 0n).permissions;
  if (hasPermissions(base, PERMISSION_FLAGS.ADMINISTRATOR)) return;
  const applying = new Set([editor.guildId, member.userId, ...member.roleIds]);
  const grantsManageRoles = target.channel.overwrites.some(
    (o) => applying.has(o.id) && hasPermissions(o.allow, PERMISSION_FLAGS.MANAGE_ROLES),
  );
  if (grantsManageRoles) return;
  const held = target.parent ? permissionsIn(editor, target.parent) : base;
  const beyond = bits & ~held;
  if (beyond !== 0n) throw new MissingPermissionsError(namePermissions(beyond));
}
