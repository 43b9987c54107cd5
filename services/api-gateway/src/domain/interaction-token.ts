import { DiscordError, UnknownResourceError } from '@acs/discord-errors';

/**
 * The longest interaction token the edge passes on. The interactions service's tokens
 * are base64url of about 120 characters; Discord's own run to a few hundred. A longer
 * path segment is no token of anyone's and costs the service nothing.
 */
export const MAX_INTERACTION_TOKEN_LENGTH = 512;

/** What an interaction token is made of: base64url, and `.` (Discord's own tokens hold dots). */
const TOKEN_CHARACTERS = /^[A-Za-z0-9_.-]+$/;

/** Whether a path segment can be an interaction token at all (its value is the service's to check). */
export function isWellFormedInteractionToken(token: string): boolean {
  return token.length <= MAX_INTERACTION_TOKEN_LENGTH && TOKEN_CHARACTERS.test(token);
}

/** 401 / 50027: an interaction webhook route's token is malformed, unknown, another app's or expired. */
export class InvalidWebhookTokenError extends DiscordError {
  constructor() {
    super(401, 50027, 'Invalid Webhook Token');
  }
}

/** 404 / 10062: the callback route's interaction is unknown, its token wrong, or its deadline passed. */
export class UnknownInteractionError extends UnknownResourceError {
  constructor() {
    super(10062, 'Unknown interaction');
  }
}
