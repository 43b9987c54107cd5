import { FormErrors } from '@acs/validation';
import { ErrorCode } from './error-codes';
import { checkLength, getField, isAbsent, readString, type JsonObject } from './read-value';

// Bans of users (admin API; facts A.5): a ban deletes the user's tokens at once and unmerges
// their game identities into restricted provisional accounts, which cannot be merged (530017)
// while the ban lasts. `until` null: permanent.

/** `reason`: at most 512 characters ([Inf]: Discord's audit-log reason length). */
export const MAX_BAN_REASON_LENGTH = 512;

/** A validated `POST /admin/users/{id}/ban` body. */
export interface BanRequest {
  reason: string | null;
  /** When a temporary ban lifts; null: permanent. */
  until: Date | null;
}

/** Strict ISO 8601 date-time with a zone (`2026-12-01T00:00:00Z`, `…+02:00`, fractions allowed). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Validates a ban: `reason?` (string or null, ≤ 512), `until?` (null, or an ISO 8601 time
 * with a zone that is still to come: a ban that has already ended is no ban). 400 / 50035
 * with every error found.
 */
export function validateBanBody(body: JsonObject, now: Date): BanRequest {
  const errors = new FormErrors();
  const request: BanRequest = { reason: null, until: null };
  const reason = getField(body, 'reason');
  if (!isAbsent(reason)) {
    const text = readString(reason, errors, ['reason']);
    if (text !== undefined && checkLength(text, 0, MAX_BAN_REASON_LENGTH, errors, ['reason'])) {
      request.reason = text;
    }
  }
  const until = getField(body, 'until');
  if (!isAbsent(until)) {
    const text = readString(until, errors, ['until']);
    if (text !== undefined) {
      const time = ISO_8601.test(text) ? new Date(text) : undefined;
      if (!time || Number.isNaN(time.getTime())) {
        errors.add(
          ['until'],
          ErrorCode.DATE_TYPE_PARSE,
          `Could not parse ${JSON.stringify(text.slice(0, 100))}. Should be ISO8601.`,
        );
      } else if (time.getTime() <= now.getTime()) {
        errors.add(['until'], ErrorCode.BAN_UNTIL_IN_PAST, 'A temporary ban must end in the future.');
      } else {
        request.until = time;
      }
    }
  }
  errors.throwIfAny();
  return request;
}

/** Whether a ban (its `until`) is in force at `now`. */
export function banInForce(until: Date | null, now: Date): boolean {
  return until === null || until.getTime() > now.getTime();
}

/** The admin API's answer for a ban. */
export function renderBan(userId: string, ban: BanRequest): Record<string, unknown> {
  return { user_id: userId, reason: ban.reason, until: ban.until?.toISOString() ?? null };
}
