import { fieldError } from '@acs/discord-errors';
import { MAX_PINS_PAGE } from '../messages/message-limits';

/** A page of `GET /channels/{id}/messages/pins`. */
export interface PinsQuery {
  /** Pins made strictly before this time; undefined for the newest. */
  before: Date | undefined;
  /** 1-50. */
  limit: number;
}

/** An ISO 8601 date-time: a date, `T`, a time, optional fraction, and `Z` or an offset. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Reads the query of `GET /channels/{id}/messages/pins` (D:resources/message.mdx §Get
 * Channel Pins): `before` an ISO 8601 timestamp (50035 at `before` otherwise), `limit` 1-50.
 */
export function readPinsQuery(before: string, limit: number): PinsQuery {
  if (!Number.isInteger(limit) || limit < 1) {
    throw fieldError('limit', 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 1.');
  }
  if (limit > MAX_PINS_PAGE) {
    throw fieldError(
      'limit',
      'NUMBER_TYPE_MAX',
      `int value should be less than or equal to ${MAX_PINS_PAGE}.`,
    );
  }
  if (before === '') return { before: undefined, limit };
  const time = ISO_8601.test(before) ? Date.parse(before) : NaN;
  if (Number.isNaN(time)) {
    throw fieldError(
      'before',
      'DATE_TIME_TYPE_PARSE',
      `Could not parse ${before.slice(0, 100)}. Should be ISO8601.`,
    );
  }
  return { before: new Date(time), limit };
}
