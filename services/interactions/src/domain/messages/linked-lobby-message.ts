import type { JsonObject } from '@acs/validation';
import { formatTimestamp } from './format-timestamp';

/** The guild channel a lobby is linked to. */
export interface LinkedChannel {
  guildId: string;
  channelId: string;
}

/** A lobby message as lobby's `lobby.message.created` carries it (B3). */
export interface LobbyMessage {
  id: string;
  content: string;
  author: JsonObject;
  application_id?: string;
}

/**
 * The channel message a linked lobby's message becomes (D:discord-social-sdk/development-
 * guides/linked-channels.mdx: a message to a linked lobby is forwarded to its channel): a
 * default message (type 0) by the lobby message's author, with its content; the lobby's
 * `metadata` is not kept (B3: "not persisted on the linked-channel copy").
 */
export function linkedLobbyMessage(
  id: string,
  lobbyMessage: LobbyMessage,
  channel: LinkedChannel,
  createdAt: Date,
): JsonObject {
  return {
    id,
    type: 0,
    content: lobbyMessage.content,
    channel_id: channel.channelId,
    author: lobbyMessage.author,
    attachments: [],
    embeds: [],
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: false,
    timestamp: formatTimestamp(createdAt),
    edited_timestamp: null,
    flags: 0,
    components: [],
    ...(lobbyMessage.application_id ? { application_id: lobbyMessage.application_id } : {}),
  };
}
