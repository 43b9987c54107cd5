import { BaseErrorCode } from '@acs/discord-errors';

// Inner `_errors[].code` strings of 50035 answers. The first group is the real API's
// (facts §3.3); the second names rules whose real code is not public, in the same style,
// each with a message that says what is allowed.

/** Every inner validation code this service answers with. */
export const ErrorCode = {
  ...BaseErrorCode,

  // Our names for rules whose real code is not public.
  UNKNOWN_ROLE: 'UNKNOWN_ROLE',
  UNKNOWN_USER: 'UNKNOWN_USER',
  UNKNOWN_CHANNEL: 'UNKNOWN_CHANNEL',
  CHANNEL_PARENT_INVALID: 'CHANNEL_PARENT_INVALID',
  CHANNEL_OVERWRITES_INVALID: 'CHANNEL_OVERWRITES_INVALID',
  ROLE_EVERYONE_IMMUTABLE: 'ROLE_EVERYONE_IMMUTABLE',
  ROLE_MANAGED: 'ROLE_MANAGED',
  // communication_disabled_until: not an ISO8601 date-time (Discord's parse error), or past
  // the 28 days a timeout may last.
  DATE_TIME_TYPE_PARSE: 'DATE_TIME_TYPE_PARSE',
  COMMUNICATION_DISABLED_UNTIL_TOO_LATE: 'COMMUNICATION_DISABLED_UNTIL_TOO_LATE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
