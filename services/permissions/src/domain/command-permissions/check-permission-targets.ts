import { ErrorCode } from '../validation/error-codes';
import { FormErrors } from '@acs/validation';
import { allChannelsId, CommandPermissionType, type CommandPermission } from './command-permission-model';

/** What exists in the guild among the ids the overwrites name. */
export interface GuildTargets {
  guildId: string;
  roleIds: ReadonlySet<string>;
  memberIds: ReadonlySet<string>;
  /** Channels that may carry overwrites (threads excluded: they use their parent's). */
  channelIds: ReadonlySet<string>;
}

/**
 * Every overwrite must name something of the guild: a role (`@everyone` is the guild id),
 * a member, or a channel ("All Channels" is the guild id − 1). A bad one is 50035 at
 * `permissions.<index>.id`, so that the caller sees which entry is wrong.
 */
export function checkPermissionTargets(
  permissions: readonly CommandPermission[],
  targets: GuildTargets,
): void {
  const errors = new FormErrors();
  const allChannels = allChannelsId(targets.guildId);
  permissions.forEach((p, index) => {
    const at = ['permissions', index, 'id'];
    if (p.type === CommandPermissionType.ROLE && !targets.roleIds.has(p.id)) {
      errors.add(at, ErrorCode.UNKNOWN_ROLE, `Unknown role: ${p.id} is not a role of this guild`);
    } else if (p.type === CommandPermissionType.USER && !targets.memberIds.has(p.id)) {
      errors.add(at, ErrorCode.UNKNOWN_USER, `Unknown user: ${p.id} is not a member of this guild`);
    } else if (
      p.type === CommandPermissionType.CHANNEL &&
      p.id !== allChannels &&
      !targets.channelIds.has(p.id)
    ) {
      errors.add(
        at,
        ErrorCode.UNKNOWN_CHANNEL,
        `Unknown channel: ${p.id} is not a channel of this guild (threads take their parent's permissions)`,
      );
    }
  });
  if (errors.count > 0) throw errors.toError();
}
