import { checkPermissions, type PermissionContext } from '../check-permissions';
import type { Overwrite } from '../guild-model';
import { PERMISSION_FLAGS } from '../permission-flags';
import { CannotEditCommandPermissionsError } from './command-permissions-errors';
import { allChannelsId, CommandPermissionType, type CommandPermission } from './command-permission-model';
import type { CommandDecision } from './decide-command-permission';
import { memberForDecision } from './member-for-decision';

/** A role's place in the hierarchy. */
export interface RoleRank {
  position: number;
}

/** What the check needs besides the overwrites, already loaded. */
export interface PermissionEditorInput {
  /** The editor's guild-level context (MANAGE_GUILD and MANAGE_ROLES already checked). */
  context: PermissionContext;
  /** May the editor use the command (guild-wide)? null when editing the app-level entry. */
  decision: CommandDecision | null;
  /** The overwrites the PUT sets. */
  permissions: readonly CommandPermission[];
  /** The positions of the editor's roles and of the targeted roles (unknown ids are absent). */
  roles: ReadonlyMap<string, RoleRank>;
  /** The overwrites of the targeted channels (unknown ids and threads are absent). */
  channels: ReadonlyMap<string, { type: number; overwrites: Overwrite[] }>;
}

/**
 * Discord's hierarchy: the higher position wins; on a tie, the older role (lower id) is
 * the higher one (how clients order roles of equal position).
 */
function isBelow(role: [string, RoleRank], top: [string, RoleRank]): boolean {
  const [id, { position }] = role;
  const [topId, top_] = top;
  if (position !== top_.position) return position < top_.position;
  return BigInt(id) > BigInt(topId);
}

/**
 * The rest of the PUT's rules (facts §16, D:interactions/application-commands.mdx §Edit
 * Application Command Permissions): the editor must be able to run the command being
 * edited, and manage what the overwrites affect: a role only below the editor's highest
 * role (`@everyone` is below every role), a channel only with MANAGE_CHANNELS there ("All
 * Channels": in the guild). The owner and administrators pass. Targets that do not exist
 * are left to the target check (50035). Throws 403 / 50013 naming the first obstacle.
 */
export function checkPermissionEditor(input: PermissionEditorInput): void {
  const member = memberForDecision(input.context);
  if (!member) throw new CannotEditCommandPermissionsError('you are not a member of this guild');
  if (member.isAdministrator) return;
  const { decision, context } = input;
  if (decision && !decision.allowed) {
    throw new CannotEditCommandPermissionsError(
      `you cannot use this command in this guild (${decision.reason}), so you cannot edit its permissions`,
    );
  }

  const ranked = member.roleIds.flatMap((id) => {
    const rank = input.roles.get(id);
    return rank ? [[id, rank] as [string, RoleRank]] : [];
  });
  const top = ranked.reduce<[string, RoleRank] | null>(
    (best, r) => (best === null || isBelow(best, r) ? r : best),
    null,
  );
  const allChannels = allChannelsId(context.guildId);

  for (const p of input.permissions) {
    if (p.type === CommandPermissionType.ROLE && p.id !== context.guildId) {
      const rank = input.roles.get(p.id);
      if (rank && (top === null || !isBelow([p.id, rank], top))) {
        throw new CannotEditCommandPermissionsError(`role ${p.id} is not below your highest role`);
      }
    } else if (p.type === CommandPermissionType.CHANNEL) {
      const channel = p.id === allChannels ? undefined : input.channels.get(p.id);
      if (p.id !== allChannels && !channel) continue;
      const here = channel ? { ...context, channel: { ...channel, parent: null } } : context;
      if (!checkPermissions(here, PERMISSION_FLAGS.MANAGE_CHANNELS).allowed) {
        const where = channel ? `in channel ${p.id}` : 'for All Channels';
        throw new CannotEditCommandPermissionsError(`MANAGE_CHANNELS ${where}`);
      }
    }
  }
}
