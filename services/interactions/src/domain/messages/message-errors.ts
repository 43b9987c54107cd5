import { DiscordError, UnknownResourceError } from '@acs/discord-errors';

/** 400 / 50006: no content, no embeds (and, once they exist, no components, files or poll). */
export class EmptyMessageError extends DiscordError {
  constructor() {
    super(400, 50006, 'Cannot send an empty message');
  }
}

/**
 * 404 / 10008: no such message of this interaction: an unknown id, a message of another
 * interaction, a deleted one, or `@original` before the interaction has a response message.
 */
export class UnknownMessageError extends UnknownResourceError {
  constructor() {
    super(10008, 'Unknown Message');
  }
}
