import { DiscordError } from '@acs/discord-errors';
import { MAX_REACTION_EMOJIS } from '../messages/message-limits';

/**
 * 400 / 10014: an emoji the route cannot name: not one Unicode emoji, or a custom emoji
 * (`name:id`) ACS does not have (it stores no guild emojis yet). The status is [Inf].
 */
export class UnknownEmojiError extends DiscordError {
  constructor() {
    super(400, 10014, 'Unknown Emoji');
  }
}

/** 400 / 30010: a message already has its maximum of distinct reactions. */
export class MaxReactionsError extends DiscordError {
  constructor() {
    super(400, 30010, `Maximum number of reactions reached (${MAX_REACTION_EMOJIS})`);
  }
}
