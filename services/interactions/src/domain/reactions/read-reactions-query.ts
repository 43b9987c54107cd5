import { fieldError } from '@acs/discord-errors';
import { MessageErrorCode as ErrorCode } from '../messages/message-error-codes';
import { DEFAULT_REACTIONS_PAGE, MAX_REACTIONS_PAGE } from '../messages/message-limits';

/** A page of Get Reactions: the users after `after` (by id), at most `limit`, of reactions of `type`. */
export interface ReactionsQuery {
  /** 0 NORMAL, 1 BURST (OAS `ReactionTypes`). */
  type: 0 | 1;
  /** '' for the first page. */
  after: string;
  limit: number;
}

/**
 * Reads Get Reactions' query (D:resources/message.mdx §Get Reactions): `type` 0 or 1 (0 when
 * absent; -1 here), `after` a user id (checked by the caller), `limit` 1-100 (25 when absent;
 * 0 here). 400 / 50035 at the parameter otherwise.
 */
export function readReactionsQuery(query: { type: number; after: string; limit: number }): ReactionsQuery {
  if (query.type !== -1 && query.type !== 0 && query.type !== 1) {
    throw fieldError('type', ErrorCode.BASE_TYPE_CHOICES, 'Value must be one of (0, 1).');
  }
  if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > MAX_REACTIONS_PAGE) {
    throw fieldError(
      'limit',
      query.limit > MAX_REACTIONS_PAGE ? ErrorCode.NUMBER_TYPE_MAX : ErrorCode.NUMBER_TYPE_MIN,
      query.limit > MAX_REACTIONS_PAGE
        ? `int value should be less than or equal to ${MAX_REACTIONS_PAGE}.`
        : 'int value should be greater than or equal to 1.',
    );
  }
  return {
    type: query.type === 1 ? 1 : 0,
    after: query.after,
    limit: query.limit === 0 ? DEFAULT_REACTIONS_PAGE : query.limit,
  };
}
