import { fieldError, readPathSnowflake } from '@acs/discord-errors';
import { addNulError, FormErrors, hasNul } from '@acs/validation';
import { MAX_LISTED_IDS, MAX_MEMBERS_PER_PAGE, MAX_NICK_LENGTH } from './limits';
import { ErrorCode } from './validation/error-codes';

/** What ListGuildMembers lists: given users, or a page (after a user id, by a nick prefix). */
export interface ListGuildMembersInput {
  guildId: string;
  /** Empty: any member. */
  userIds: string[];
  after: string | null;
  limit: number;
  /** Empty: any nick (or none). */
  nickPrefix: string;
}

/**
 * Reads a ListGuildMembers request (from the dispatcher, which has read op 8): snowflake
 * ids, at most 100 users, a limit of 1-1,000, a prefix no longer than a nick and without
 * NUL. 50035 at the field otherwise.
 */
export function validateListGuildMembers(request: {
  guild_id: string;
  user_ids: string[];
  after: string;
  limit: number;
  nick_prefix: string;
}): ListGuildMembersInput {
  const guildId = readPathSnowflake('guild_id', request.guild_id);
  if (request.user_ids.length > MAX_LISTED_IDS)
    throw fieldError(
      'user_ids',
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_LISTED_IDS} or fewer in length.`,
    );
  const userIds = [...new Set(request.user_ids.map((id) => readPathSnowflake('user_ids', id)))];
  const after = request.after === '' ? null : readPathSnowflake('after', request.after);
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_MEMBERS_PER_PAGE)
    throw fieldError(
      'limit',
      ErrorCode.NUMBER_TYPE_MAX,
      `int value should be between 1 and ${MAX_MEMBERS_PER_PAGE}.`,
    );
  if ([...request.nick_prefix].length > MAX_NICK_LENGTH)
    throw fieldError(
      'nick_prefix',
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_NICK_LENGTH} or fewer in length.`,
    );
  if (hasNul(request.nick_prefix)) {
    const errors = new FormErrors();
    addNulError(errors, ['nick_prefix']);
    throw errors.toError();
  }
  return { guildId, userIds, after, limit: request.limit, nickPrefix: request.nick_prefix };
}

/** Reads a ListGuildBots request: at most 100 snowflake guild ids (duplicates answered once). */
export function validateListGuildBots(request: { guild_ids: string[] }): string[] {
  if (request.guild_ids.length > MAX_LISTED_IDS)
    throw fieldError(
      'guild_ids',
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_LISTED_IDS} or fewer in length.`,
    );
  return [...new Set(request.guild_ids.map((id) => readPathSnowflake('guild_ids', id)))];
}
