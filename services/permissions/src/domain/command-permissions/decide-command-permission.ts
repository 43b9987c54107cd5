import { PERMISSION_FLAGS } from '../permission-flags';
import { allChannelsId, CommandPermissionType, type CommandPermission } from './command-permission-model';

/** What decided. */
export type CommandDecisionReason =
  | 'not_member'
  | 'administrator'
  | 'missing_use_application_commands'
  | 'channel'
  | 'user'
  | 'role'
  | 'everyone'
  | 'default_member_permissions'
  | 'no_default_member_permissions';

/** Where an overwrite that decided came from. */
export type OverwriteLevel = 'command' | 'application';

/** The answer to "may this user use this command here", with why. */
export interface CommandDecision {
  allowed: boolean;
  reason: CommandDecisionReason;
  /** For overwrite reasons: the level and id of the overwrite that decided. */
  level?: OverwriteLevel;
  overwriteId?: string;
  /** For `default_member_permissions`: the required bits the user lacks. */
  missing?: bigint;
}

/** Everything the decision needs, already loaded. */
export interface CommandDecisionInput {
  guildId: string;
  /**
   * The channel the command would run in; for a thread, its parent channel (threads
   * inherit their parent's command permissions). Undefined: no channel, no channel gate.
   */
  channelId?: string;
  /** The user's membership; null when the user is not a member. */
  member: {
    userId: string;
    /** The member's roles, @everyone excluded. */
    roleIds: readonly string[];
    /** Owner, or ADMINISTRATOR through a role. */
    isAdministrator: boolean;
    /** The member's permissions in the channel (or in the guild when there is none). */
    permissions: bigint;
  } | null;
  /** The command's own overwrites in the guild. */
  commandOverwrites: readonly CommandPermission[];
  /** The app-level overwrites (the entry whose id is the application id). */
  applicationOverwrites: readonly CommandPermission[];
  /** The command's `default_member_permissions`: null = everyone, 0n = administrators only. */
  defaultMemberPermissions: bigint | null;
}

interface Effective {
  permission: boolean;
  level: OverwriteLevel;
  id: string;
}

/**
 * The permissions v2 decision, in this order (see the README for the worked example):
 * non-members never; administrators (and the owner) always; USE_APPLICATION_COMMANDS in
 * the channel is required; then the overwrites, where a command-level overwrite replaces
 * the app-level one for the same target and app-level ones for other targets stay in
 * effect. The channel gates first (the channel's own overwrite, else All Channels; a
 * `false` denies whatever the user's or roles' overwrites say); then the user's overwrite;
 * then the member's role overwrites (any allow wins over denies); then `@everyone`'s.
 * When no member overwrite decides, `default_member_permissions` does ("0" = administrators only).
 */
export function decideCommandPermission(input: CommandDecisionInput): CommandDecision {
  const { member } = input;
  if (!member) return { allowed: false, reason: 'not_member' };
  if (member.isAdministrator) return { allowed: true, reason: 'administrator' };
  if ((member.permissions & PERMISSION_FLAGS.USE_APPLICATION_COMMANDS) === 0n) {
    return { allowed: false, reason: 'missing_use_application_commands' };
  }

  const overwrites = mergeOverwrites(input.applicationOverwrites, input.commandOverwrites);
  const find = (type: CommandPermissionType, id: string) => overwrites.get(`${type}:${id}`);
  const decided = (reason: CommandDecisionReason, e: Effective): CommandDecision => ({
    allowed: e.permission,
    reason,
    level: e.level,
    overwriteId: e.id,
  });

  if (input.channelId !== undefined) {
    const channel =
      find(CommandPermissionType.CHANNEL, input.channelId) ??
      find(CommandPermissionType.CHANNEL, allChannelsId(input.guildId));
    if (channel && !channel.permission) return decided('channel', channel);
  }

  const user = find(CommandPermissionType.USER, member.userId);
  if (user) return decided('user', user);

  const roles = member.roleIds
    .filter((id) => id !== input.guildId)
    .flatMap((id) => find(CommandPermissionType.ROLE, id) ?? []);
  if (roles.length > 0) return decided('role', roles.find((r) => r.permission) ?? (roles[0] as Effective));

  const everyone = find(CommandPermissionType.ROLE, input.guildId);
  if (everyone) return decided('everyone', everyone);

  const required = input.defaultMemberPermissions;
  if (required === null) return { allowed: true, reason: 'no_default_member_permissions' };
  // "0": nobody but administrators, who were answered above.
  const missing = required === 0n ? 0n : required & ~member.permissions;
  return { allowed: required !== 0n && missing === 0n, reason: 'default_member_permissions', missing };
}

/** App-level overwrites, each replaced by the command-level one for the same target. */
function mergeOverwrites(
  application: readonly CommandPermission[],
  command: readonly CommandPermission[],
): Map<string, Effective> {
  const merged = new Map<string, Effective>();
  for (const p of application)
    merged.set(`${p.type}:${p.id}`, { permission: p.permission, level: 'application', id: p.id });
  for (const p of command)
    merged.set(`${p.type}:${p.id}`, { permission: p.permission, level: 'command', id: p.id });
  return merged;
}
