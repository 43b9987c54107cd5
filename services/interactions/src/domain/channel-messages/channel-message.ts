import type { JsonObject } from '@acs/validation';
import type { MessageReaction } from '../reactions/reaction-summary';
import type { MessageCore } from '../messages/render-message';

/** Message types a channel message route makes (D:resources/message.mdx §Message Types). */
export const ChannelMessageType = { DEFAULT: 0, REPLY: 19 } as const;

/** A reply's or forward's `message_reference` as the API answers it (D §Message Reference Structure). */
export interface MessageReference {
  /** 0 DEFAULT (a reply), 1 FORWARD. */
  type: 0 | 1;
  message_id: string;
  channel_id: string;
  guild_id?: string;
}

/**
 * A message as the channel routes read and write it (D:resources/message.mdx §Message Object;
 * OAS `MessageResponse`): a plain message sent with `POST /channels/{id}/messages`, or any
 * message the store holds (interaction responses and linked lobbies' copies carry more keys).
 */
export interface ChannelMessage extends MessageCore {
  message_reference?: MessageReference;
  /** A reply's target as it was when the reply was sent; null when it was deleted since. */
  referenced_message?: JsonObject | null;
  /** A forward's copy of its source (D §Message Snapshot Object): exactly one, immutable. */
  message_snapshots?: { message: JsonObject }[];
  /** The reactions by emoji, when it has any (`me` as the reader sees them). */
  reactions?: MessageReaction[];
  /** Only in the answer to its creation and in MESSAGE_CREATE (D §Create Message). */
  nonce?: string | number;
}

/** The author's id of a stored message ('' when it has none). */
export function authorIdOf(message: Pick<ChannelMessage, 'author'>): string {
  const id = message.author.id;
  return typeof id === 'string' ? id : '';
}
