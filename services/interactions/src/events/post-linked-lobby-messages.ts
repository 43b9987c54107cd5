import type { ReceivedEvent } from '@acs/events';
import type { LinkedChannel, LobbyMessage } from '../domain/messages';

/** Where linked lobby messages are posted (LinkedMessageStore). */
export interface LinkedMessagePoster {
  post(applicationId: string, lobbyMessage: LobbyMessage, channel: LinkedChannel): Promise<boolean>;
}

/** The one event this consumer reads. */
export const LINKED_LOBBY_EVENTS = ['lobby.message.created'] as const;

/**
 * The handler of interactions' consumer of lobby's `lobby.message.created`: a message to a
 * lobby linked to a guild channel is posted there too (MESSAGE_CREATE to whoever may view
 * the channel). lobby does not call interactions and interactions does not call lobby: the
 * event is the only link, so the call graph keeps no cycle. A lobby message is delivered to
 * the lobby whatever happens here (B3: "if forwarding fails, the lobby message is still
 * delivered"); a failure here is retried by the consumer.
 */
export function postLinkedLobbyMessages(poster: LinkedMessagePoster) {
  return async (event: ReceivedEvent<(typeof LINKED_LOBBY_EVENTS)[number]>): Promise<void> => {
    const { linked_channel: channel, message, application_id: applicationId } = event.data;
    if (!channel) return;
    await poster.post(applicationId, message as unknown as LobbyMessage, {
      guildId: channel.guild_id,
      channelId: channel.channel_id,
    });
  };
}
