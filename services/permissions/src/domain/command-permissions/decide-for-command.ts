import type { PermissionContext } from '../check-permissions';
import type { GuildCommandPermissions } from './command-permission-model';
import { decideCommandPermission, type CommandDecision } from './decide-command-permission';
import { commandPermissionChannelId, memberForDecision } from './member-for-decision';
import type { RegisteredCommand } from './registered-command';

/**
 * "May this user use this command here", for one command of an app: the decision of
 * `decideCommandPermission` with the member and channel of `context` (a thread judged by
 * its parent), the command's own overwrites and the app-level ones taken from `entries`
 * (the entries that still apply, `currentEntries`; other apps' are ignored).
 * `CheckCommandPermission`, `UpdateCommandPermissions` (the editor's own use) and
 * `DescribeInvocationContext` all decide through it, so they cannot disagree.
 */
export function decideForCommand(
  context: PermissionContext,
  command: RegisteredCommand,
  entries: readonly GuildCommandPermissions[],
): CommandDecision {
  const own = entries.filter((e) => e.applicationId === command.applicationId);
  return decideCommandPermission({
    guildId: context.guildId,
    channelId: commandPermissionChannelId(context),
    member: memberForDecision(context),
    commandOverwrites: own.find((e) => e.id === command.id)?.permissions ?? [],
    applicationOverwrites: own.find((e) => e.id === command.applicationId)?.permissions ?? [],
    defaultMemberPermissions: command.defaultMemberPermissions,
  });
}
