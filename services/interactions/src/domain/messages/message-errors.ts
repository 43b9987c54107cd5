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

/**
 * 413 / 40005: the write would take the application past its storage quota
 * (APPLICATION_STORAGE_QUOTA_BYTES). Discord has no such quota; its code for a request
 * too large is the nearest, and clients already treat it as "this will not fit" rather
 * than as something to retry. The message names the quota, so an operator reading it
 * knows which setting to raise.
 */
export class StorageQuotaExceededError extends DiscordError {
  constructor(quotaBytes: number) {
    super(
      413,
      40005,
      `Request entity too large: the application's storage quota of ${quotaBytes} bytes is used up ` +
        '(delete messages or files to free it)',
    );
  }
}
