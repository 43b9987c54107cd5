import { FormErrors, readString } from '@acs/validation';
import { MAX_NICK_LENGTH } from './limits';
import { ErrorCode } from './validation/error-codes';
import { readRoleIds } from './validate-put-member';
import { describeValue, getField, readModel } from './validation/read-value';

/**
 * A valid Modify Guild Member body (D:resources/guild.mdx §Modify Guild Member): each
 * field absent is left as it is. `mute`, `deaf`, `channel_id` and `flags` are accepted
 * and ignored (ACS keeps no server mute, deafen or member flags).
 */
export interface ModifyMemberInput {
  /** A nickname, or null to clear it (an empty string clears it too, as on Discord). */
  nick?: string | null;
  /** The member's roles, replacing theirs (null: none), as given, so errors name the index. */
  roles?: string[];
  /** When the timeout ends, or null to lift it. */
  communicationDisabledUntil?: Date | null;
}

// ISO8601 date-time as Discord writes and reads it: a date, a time (seconds and fraction
// optional) and an offset. The text is bounded first, so a megabyte costs one length check.
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/;
const MAX_DATE_TIME_LENGTH = 40;

/** An ISO8601 date-time as a Date, or null when it is not one (a calendar-impossible date included). */
export function parseIsoDateTime(text: string): Date | null {
  if (text.length > MAX_DATE_TIME_LENGTH) return null;
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [, date, time, fraction = '', offset] = match;
  // Milliseconds at most: Date parses three digits of fraction; the rest is below its precision.
  const millis = fraction === '' ? '' : fraction.slice(0, 4).padEnd(4, '0');
  const zone = offset === 'Z' ? 'Z' : `${offset!.slice(0, 3)}:${offset!.slice(-2)}`;
  const parsed = new Date(`${date}T${time}${millis}${zone}`);
  if (Number.isNaN(parsed.getTime())) return null;
  // `new Date` rolls 2026-02-31 over into March: refuse a day the month does not have.
  const [year, month, day] = date!.split('-').map(Number);
  const check = new Date(Date.UTC(year!, month! - 1, day!));
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day) return null;
  return parsed;
}

/**
 * Reads `{nick?, roles?, communication_disabled_until?}` (the OpenAPI's `update_guild_member`
 * body); throws 50035 with every problem: `nick` a string of at most 32 characters or null,
 * `roles` at most 250 snowflakes (null: none), `communication_disabled_until` an ISO8601
 * date-time or null (DATE_TIME_TYPE_PARSE otherwise). How far ahead the timeout may end is
 * weighed by the planner, against the database's clock.
 */
export function validateModifyMember(body: unknown): ModifyMemberInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const input: ModifyMemberInput = {};

  const rawNick = getField(object, 'nick');
  if (rawNick === null) input.nick = null;
  else if (rawNick !== undefined) {
    const nick = readString(rawNick, errors, ['nick']);
    if (nick !== undefined && [...nick.slice(0, MAX_NICK_LENGTH * 2 + 1)].length > MAX_NICK_LENGTH) {
      errors.add(['nick'], ErrorCode.BASE_TYPE_MAX_LENGTH, `Must be ${MAX_NICK_LENGTH} or fewer in length.`);
    } else if (nick !== undefined) input.nick = nick === '' ? null : nick;
  }

  const rawRoles = getField(object, 'roles');
  if (rawRoles === null) input.roles = [];
  else if (rawRoles !== undefined) {
    const roles = readRoleIds(rawRoles, errors);
    if (roles) input.roles = roles;
  }

  const rawUntil = getField(object, 'communication_disabled_until');
  if (rawUntil === null) input.communicationDisabledUntil = null;
  else if (rawUntil !== undefined) {
    const text = readString(rawUntil, errors, ['communication_disabled_until']);
    if (text !== undefined) {
      const until = parseIsoDateTime(text);
      if (until === null) {
        errors.add(
          ['communication_disabled_until'],
          ErrorCode.DATE_TIME_TYPE_PARSE,
          `Could not parse ${describeValue(text)}. Should be ISO8601.`,
        );
      } else input.communicationDisabledUntil = until;
    }
  }

  if (errors.count > 0) throw errors.toError();
  return input;
}
