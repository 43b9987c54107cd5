import { checkMessageAccess } from './check-message-access';
import type { LinkedChannelRef, LobbyEvent } from './lobby-events';
import { renderLobbyMessage, type JsonRecord } from './lobby-objects';
import type { MessageInput } from './read-lobby-bodies';

/** What the store read of a lobby for a new message, from the author's point of view. */
export interface MessageLobby {
  id: string;
  applicationId: string;
  /** Whether the author is a member. */
  isMember: boolean;
  /** The author's `additional_name` in the lobby. */
  additionalName: string | null;
  /** The members' user ids. */
  userIds: string[];
  overrideEventWebhooksUrl: string | null;
  linkedChannel: LinkedChannelRef;
}

/** The author of a message: its user object (opaque, as oauth describes it) and whether it is the bot. */
export interface MessageAuthorRef {
  user: JsonRecord;
  bot: boolean;
}

/** A new message and its LOBBY_MESSAGE_CREATE, to the members, the application's webhooks and a linked channel. */
export interface LobbyMessagePlan {
  message: JsonRecord;
  event: LobbyEvent;
}

/**
 * POST /lobbies/{id}/messages: refused (403 / 50001) for a user who is not a member; the
 * bot's messages carry no `lobby_member`.
 */
export function planLobbyMessage(
  lobby: MessageLobby,
  author: MessageAuthorRef,
  input: MessageInput,
  id: string,
): LobbyMessagePlan {
  checkMessageAccess(author, lobby.isMember);
  const message = renderLobbyMessage({
    id,
    lobbyId: lobby.id,
    applicationId: lobby.applicationId,
    content: input.content,
    metadata: input.metadata,
    author: author.user,
    additionalName: author.bot ? null : lobby.additionalName,
  });
  return {
    message,
    event: {
      name: 'lobby.message.created',
      data: {
        application_id: lobby.applicationId,
        lobby_id: lobby.id,
        user_ids: lobby.userIds,
        message,
        override_event_webhooks_url: lobby.overrideEventWebhooksUrl,
        linked_channel: lobby.linkedChannel,
      },
    },
  };
}
