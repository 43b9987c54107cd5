import { MissingAccessError } from '@acs/discord-errors';
import { Permission } from '../interaction-enums';
import { hasPermission } from './has-permission';
import type { InvocationPlace } from './invocation-facts';
import { InvocationErrorCode, InvocationErrorMessage, throwInvocationError } from './invocation-errors';

/**
 * Whether the user is in the guild of an interaction now, where they may see it: the first
 * rule of every interaction a user makes in a guild (a command, its autocomplete, a
 * component, a modal submit), judged on permissions' answer of this request (the member as
 * stored now, not as when the message was posted or the modal opened).
 *
 * - A user who is not a member (never one, removed, a member of another guild) is refused as
 *   permissions' command decision refuses a non-member: 400 / 50035 at `data`. It comes
 *   before the context and install checks, so an outsider learns nothing of the guild's
 *   installs.
 * - A member who cannot view the channel: 403 / 50001.
 *
 * Outside a guild (a DM or group DM, whose recipients permissions checks) there is nothing
 * to judge.
 */
export function checkGuildPresence(guildId: string | null, place: InvocationPlace): void {
  if (guildId === null) return;
  if (place.member === null) {
    throwInvocationError(['data'], InvocationErrorCode.INVALID, InvocationErrorMessage.NO_PERMISSION);
  }
  if (!hasPermission(place.userPermissions, Permission.VIEW_CHANNEL)) throw new MissingAccessError();
}
