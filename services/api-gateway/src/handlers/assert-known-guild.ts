import { DiscordError, fieldError } from '@acs/discord-errors';
import { isSnowflake } from '@acs/snowflake';
import type { PermissionsClient } from '../clients/permissions-client';

/**
 * A guild id of a monetization body must name a guild, which the permissions service owns
 * (oauth, which keeps entitlements, knows none): 404 / 10004 Unknown Guild otherwise, or,
 * with `field` (the admin API), 400 / 50035 UNKNOWN_GUILD at that field. A value that is
 * no id is left to oauth, which reports its type.
 */
export async function assertKnownGuild(
  permissions: PermissionsClient,
  value: unknown,
  field?: string,
): Promise<void> {
  const id = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  if (typeof id !== 'string' || !isSnowflake(id)) return;
  try {
    // Membership of anyone answers whether the guild exists (404 / 10004 when it does not).
    await permissions.isMember(id, id);
  } catch (error) {
    if (field !== undefined && error instanceof DiscordError && error.httpStatus === 404) {
      throw fieldError(field, 'UNKNOWN_GUILD', `Unknown guild ${id}`);
    }
    throw error;
  }
}
