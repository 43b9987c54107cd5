import type { EventNameOf, EventPayload } from '@acs/events';

/** The events this service publishes (`@acs/events`' catalog, `interactions.*`). */
export type InteractionEventName = EventNameOf<'interactions'>;

/**
 * An event a change of an interaction emits, as a planner decides it: its catalog name and
 * its data, audience included. The store turns each into an outbox row (createEvent checks
 * the data against the catalog) and writes them in the order planned.
 */
export type InteractionEvent = {
  [N in InteractionEventName]: { name: N; data: EventPayload<N> };
}[InteractionEventName];

/** The planned event `name` with `data` (typed by the catalog). */
export function interactionEvent<N extends InteractionEventName>(
  name: N,
  data: EventPayload<N>,
): InteractionEvent {
  return { name, data } as InteractionEvent;
}

/** Whom an interaction concerns: the invoking user and their session, the app, the place. */
export interface InteractionParties {
  id: string;
  applicationId: string;
  userId: string;
  sessionId: string | null;
  nonce: string | null;
  /** Null in a DM or group DM. */
  guildId: string | null;
  channelId: string;
}

/** An interaction's parties with the members of its DM (empty in a guild): who sees its messages. */
export interface MessageParties extends Omit<InteractionParties, 'id' | 'sessionId' | 'nonce'> {
  recipientIds: string[];
}

type InteractionAudience = EventPayload<'interactions.interaction.succeeded'>;
type MessageAudience = Omit<EventPayload<'interactions.message.deleted'>, 'message_id'>;

/** Who an interaction's events go to: the invoking user (their named session, or all) and the app. */
export function interactionAudienceOf(parties: InteractionParties): InteractionAudience {
  return {
    interaction_id: parties.id,
    application_id: parties.applicationId,
    user_id: parties.userId,
    session_id: parties.sessionId,
    nonce: parties.nonce,
    guild_id: parties.guildId,
    channel_id: parties.channelId,
  };
}

/**
 * Who may see a message of the interaction: everyone who can view the channel, or, for an
 * ephemeral message, only the invoking user (and the bot).
 */
export function messageAudienceOf(parties: MessageParties, ephemeral: boolean): MessageAudience {
  return {
    application_id: parties.applicationId,
    channel_id: parties.channelId,
    guild_id: parties.guildId,
    ephemeral_user_id: ephemeral ? parties.userId : null,
    recipient_ids: parties.recipientIds,
  };
}
