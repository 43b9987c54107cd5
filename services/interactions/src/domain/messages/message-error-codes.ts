// Inner `_errors[].code` strings of the 50035 answers about messages. The first group is
// seen on the real API; the second names rules whose real code is not public, in the same
// style, each paired with a message that says what is allowed.
import { BaseErrorCode } from '@acs/discord-errors';

/** Every inner validation code of a message body. */
export const MessageErrorCode = {
  ...BaseErrorCode,
  // Seen on the real API.
  MAX_EMBED_SIZE_EXCEEDED: 'MAX_EMBED_SIZE_EXCEEDED',
  MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
  MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
  URL_TYPE_INVALID_URL: 'URL_TYPE_INVALID_URL',
  URL_TYPE_INVALID_SCHEME: 'URL_TYPE_INVALID_SCHEME',
  DATE_TYPE_PARSE: 'DATE_TYPE_PARSE',
  ATTACHMENT_NOT_FOUND: 'ATTACHMENT_NOT_FOUND',
  MESSAGE_REFERENCE_UNKNOWN_MESSAGE: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE',

  // Our names for rules whose real code is not public.
  MESSAGE_FLAGS_INVALID: 'MESSAGE_FLAGS_INVALID',
  MESSAGE_ATTACHMENTS_UNSUPPORTED: 'MESSAGE_ATTACHMENTS_UNSUPPORTED',
  MESSAGE_POLL_UNSUPPORTED: 'MESSAGE_POLL_UNSUPPORTED',
  MESSAGE_REFERENCE_FORWARD_WITH_CONTENT: 'MESSAGE_REFERENCE_FORWARD_WITH_CONTENT',
  MESSAGE_REFERENCE_INVALID_CHANNEL: 'MESSAGE_REFERENCE_INVALID_CHANNEL',
  MESSAGE_QUERY_EXCLUSIVE: 'MESSAGE_QUERY_EXCLUSIVE',
} as const;
export type MessageErrorCode = (typeof MessageErrorCode)[keyof typeof MessageErrorCode];
