// The refusals of the channel message routes (D:topics/opcodes-and-status-codes.mdx §JSON
// Error Codes; shared/reference/messages-and-provisional-accounts.md B.7). The statuses Discord
// does not document are ACS's choices, written down in the service README.
import { DiscordError } from '@acs/discord-errors';

/** 403 / 50005: editing the content of a message another user wrote. */
export class CannotEditOthersMessageError extends DiscordError {
  constructor() {
    super(403, 50005, 'Cannot edit a message authored by another user');
  }
}

/** 403 / 50003: acting on another user's message in a DM (no one moderates a DM). */
export class DmChannelActionError extends DiscordError {
  constructor() {
    super(403, 50003, 'Cannot execute action on a DM channel');
  }
}

/** 403 / 160002: a reply by someone who cannot read the channel's history. */
export class ReplyWithoutHistoryError extends DiscordError {
  constructor() {
    super(403, 160002, 'Cannot reply without permission to read message history');
  }
}

/** 400 / 50081: `sticker_ids` naming stickers (ACS has none: every id is unknown). */
export class InvalidStickerError extends DiscordError {
  constructor() {
    super(400, 50081, 'Invalid sticker sent');
  }
}

/** 400 / 50016: a bulk delete of fewer than 2 or more than 100 messages. */
export class BulkDeleteCountError extends DiscordError {
  constructor() {
    super(400, 50016, 'Provide at least 2 and fewer than 100 messages to delete');
  }
}

/** 400 / 50034: a bulk delete naming a message older than 14 days (its id's time). */
export class BulkDeleteTooOldError extends DiscordError {
  constructor() {
    super(400, 50034, 'You can only bulk delete messages that are under 14 days old.');
  }
}

/**
 * 403 / 160014: a bot forwarding a message whose content it cannot read (no MESSAGE_CONTENT
 * toggle, and the message is not its own, does not mention it, is no DM's). D:change-log.mdx
 * 2026-04-14; the status is [Inf].
 */
export class ForwardUnreadableError extends DiscordError {
  constructor() {
    super(403, 160014, 'You cannot forward a message whose content you cannot read');
  }
}
