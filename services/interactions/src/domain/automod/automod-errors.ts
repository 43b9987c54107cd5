import { DiscordError, NotFoundError } from '@acs/discord-errors';

/**
 * 400 / 200000: a BLOCK_MESSAGE rule refused the message (D:topics/opcodes-and-status-codes.mdx;
 * Discord documents the 400 for edits, and clients read creation's the same way).
 */
export class MessageBlockedError extends DiscordError {
  constructor() {
    super(400, 200000, 'Message was blocked by automatic moderation');
  }
}

/**
 * A rule id the guild does not have. Discord's codes table names no "unknown rule" code
 * ([Inf]): the generic 404 / 0, as for an unknown route.
 */
export class UnknownRuleError extends NotFoundError {}
