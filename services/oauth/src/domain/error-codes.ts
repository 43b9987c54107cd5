import { BaseErrorCode } from '@acs/discord-errors';

// Inner `_errors[].code` strings of 50035 answers. The first group is seen on the real API
// (facts §3.3); the second names rules whose real code is not public, in the same style,
// each paired with a message that says what is expected.

/** Every inner validation code this service answers with. */
export const ErrorCode = {
  ...BaseErrorCode,
  // Seen on the real API.
  STRING_TYPE_REGEX: 'STRING_TYPE_REGEX',
  URL_TYPE_INVALID_URL: 'URL_TYPE_INVALID_URL',
  URL_TYPE_INVALID_SCHEME: 'URL_TYPE_INVALID_SCHEME',
  EMAIL_TYPE_INVALID_EMAIL: 'EMAIL_TYPE_INVALID_EMAIL',
  DATE_TYPE_PARSE: 'DATE_TYPE_PARSE',

  // Our names for rules whose real code is not public.
  UNKNOWN_APPLICATION: 'UNKNOWN_APPLICATION',
  UNKNOWN_USER: 'UNKNOWN_USER',
  OAUTH2_INVALID_REDIRECT_URI: 'OAUTH2_INVALID_REDIRECT_URI',
  URL_TYPE_FRAGMENT_NOT_ALLOWED: 'URL_TYPE_FRAGMENT_NOT_ALLOWED',
  APPLICATION_IDENTITY_PROVIDER_NOT_CONFIGURED: 'APPLICATION_IDENTITY_PROVIDER_NOT_CONFIGURED',
  IDENTITY_PROVIDER_FIELD_NOT_ALLOWED: 'IDENTITY_PROVIDER_FIELD_NOT_ALLOWED',
  IMAGE_INVALID: 'IMAGE_INVALID',
  BAN_UNTIL_IN_PAST: 'BAN_UNTIL_IN_PAST',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
