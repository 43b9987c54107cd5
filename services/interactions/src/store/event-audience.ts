import type { EventPayload } from '@acs/events';
import type { InteractionRecord } from './interaction-record';

type InteractionAudience = EventPayload<'interactions.interaction.succeeded'>;
type MessageAudience = Omit<EventPayload<'interactions.message.deleted'>, 'message_id'>;

/** Who an interaction's events go to: the invoking user (their named session, or all) and the app. */
export function interactionAudienceOf(record: InteractionRecord): InteractionAudience {
  return {
    interaction_id: record.id,
    application_id: record.applicationId,
    user_id: record.userId,
    session_id: record.sessionId,
    nonce: record.nonce,
    guild_id: record.guildId,
    channel_id: record.channelId,
  };
}

/**
 * Who may see a message of the interaction: everyone who can view the channel, or, for an
 * ephemeral message, only the invoking user (and the bot).
 */
export function messageAudienceOf(record: InteractionRecord, ephemeral: boolean): MessageAudience {
  return {
    application_id: record.applicationId,
    channel_id: record.channelId,
    guild_id: record.guildId,
    ephemeral_user_id: ephemeral ? record.userId : null,
    recipient_ids: record.recipientIds,
  };
}
