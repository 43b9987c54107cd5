import { fieldError } from '@acs/discord-errors';
import { MessageErrorCode as ErrorCode } from '../messages/message-error-codes';
import { DEFAULT_MESSAGES_PAGE, MAX_MESSAGES_PAGE } from '../messages/message-limits';

/** A page of `GET /channels/{id}/messages`: at most one anchor, and its size. */
export type MessagesQuery =
  { anchor: 'latest'; limit: number } | { anchor: 'before' | 'after' | 'around'; id: string; limit: number };

/**
 * Reads the query of Get Channel Messages (D:resources/message.mdx §Get Channel Messages):
 * `around`, `before` and `after` (ids, checked by the caller; '' when absent) are mutually
 * exclusive (ACS refuses more than one: 400 / 50035 at the second); `limit` 1-100, 50 when
 * absent (0 here).
 */
export function readMessagesQuery(query: {
  around: string;
  before: string;
  after: string;
  limit: number;
}): MessagesQuery {
  const { limit: given } = query;
  if (!Number.isInteger(given) || given < 0) {
    throw fieldError('limit', ErrorCode.NUMBER_TYPE_MIN, 'int value should be greater than or equal to 1.');
  }
  if (given > MAX_MESSAGES_PAGE) {
    throw fieldError(
      'limit',
      ErrorCode.NUMBER_TYPE_MAX,
      `int value should be less than or equal to ${MAX_MESSAGES_PAGE}.`,
    );
  }
  const limit = given === 0 ? DEFAULT_MESSAGES_PAGE : given;
  const anchors = (['around', 'before', 'after'] as const).filter((key) => query[key] !== '');
  const [anchor, second] = anchors;
  if (second !== undefined) {
    throw fieldError(
      second,
      ErrorCode.MESSAGE_QUERY_EXCLUSIVE,
      'around, before and after are mutually exclusive',
    );
  }
  return anchor === undefined ? { anchor: 'latest', limit } : { anchor, id: query[anchor], limit };
}
