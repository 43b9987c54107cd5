import { formatTimestamp, type InteractionMessage } from '../messages';

/** A pinned message as the store reads it. */
export interface PinnedMessage {
  pinnedAt: Date;
  message: InteractionMessage;
}

/**
 * `GET /channels/{id}/messages/pins`' answer (OAS `PinnedMessagesResponse`): newest pin
 * first, `pinned_at` written as message timestamps are (the next page's `before`).
 */
export function renderPins(pins: readonly PinnedMessage[], hasMore: boolean): Record<string, unknown> {
  return {
    items: pins.map((pin) => ({ pinned_at: formatTimestamp(pin.pinnedAt), message: pin.message })),
    has_more: hasMore,
  };
}
