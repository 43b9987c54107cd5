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
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
