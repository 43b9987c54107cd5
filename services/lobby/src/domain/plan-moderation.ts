import type { LinkedChannelRef, LobbyEvent } from './lobby-events';
import type { JsonRecord, LobbyRecord } from './lobby-objects';

/** A stored message as its moderation reads it. */
export interface StoredLobbyMessage {
  message: JsonRecord;
  createdAt: Date;
}

/**
 * PUT …/moderation-metadata: LOBBY_MESSAGE_UPDATE of the message with its moderation
 * metadata, timestamps and `edited_timestamp` `now`, to the lobby's members and webhooks.
 */
export function planModeration(
  lobby: LobbyRecord,
  stored: StoredLobbyMessage,
  metadata: Record<string, string>,
  now: Date,
): LobbyEvent {
  const message = {
    ...stored.message,
    moderation_metadata: metadata,
    timestamp: stored.createdAt.toISOString(),
    edited_timestamp: now.toISOString(),
  };
  return {
    name: 'lobby.message.updated',
    data: {
      application_id: lobby.applicationId,
      lobby_id: lobby.id,
      user_ids: lobby.members.map((m) => m.userId),
      message,
      override_event_webhooks_url: lobby.overrideEventWebhooksUrl,
      linked_channel: linkedChannelOf(lobby),
    },
  };
}

/** The lobby's linked channel as events carry it. */
function linkedChannelOf(lobby: LobbyRecord): LinkedChannelRef {
  const channel = lobby.linkedChannel;
  if (!channel || typeof channel.guild_id !== 'string' || typeof channel.id !== 'string') return null;
  return { guild_id: channel.guild_id, channel_id: channel.id };
}
