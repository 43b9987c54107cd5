import { MissingAccessError } from '@acs/discord-errors';
import { Permission } from '../interaction-enums';
import { hasPermission } from '../invocation/decide-access';
import type { InvocationPlace } from '../invocation/invocation-facts';

/**
 * Whoever sees a message may use its components (the command's permissions are not asked
 * again), but only where they see it: in a guild, a member without VIEW_CHANNEL there is
 * 403 / 50001, as for an invocation.
 */
export function checkFollowOnPlace(guildId: string | null, place: InvocationPlace): void {
  if (
    guildId !== null &&
    place.member !== null &&
    !hasPermission(place.userPermissions, Permission.VIEW_CHANNEL)
  ) {
    throw new MissingAccessError();
  }
}
