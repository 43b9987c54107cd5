import type { CheckedEvent, EventPayload } from '@acs/events';
import { Intent } from './gateway-codes';
import type { GatewayRoute } from './gateway-route';

/** The interactions service's events, every one dispatched on the gateway (none as a webhook). */
export const INTERACTION_EVENTS = [
  'interactions.interaction.created',
  'interactions.interaction.succeeded',
  'interactions.interaction.failed',
  'interactions.autocomplete.answered',
  'interactions.modal.created',
  'interactions.message.created',
  'interactions.message.updated',
  'interactions.message.deleted',
  'interactions.channel.pins_updated',
] as const;

/** The name of an interactions event. */
export type InteractionEventName = (typeof INTERACTION_EVENTS)[number];

/** An interactions event, checked against the catalog. */
export type InteractionEvent = CheckedEvent<InteractionEventName>;

const INTERACTION_EVENT_NAMES: ReadonlySet<string> = new Set(INTERACTION_EVENTS);

/** Whether an event is one of the interactions service's. */
export function isInteractionEvent(event: CheckedEvent): event is InteractionEvent {
  return INTERACTION_EVENT_NAMES.has(event.name);
}

/**
 * The dispatches of an interactions event (UD:gateway/gateway-events.mdx §Interactions;
 * the routing the catalog's comments specify):
 * - to the invoking user (only `session_id` when the invocation named one, else every
 *   session of theirs): INTERACTION_CREATE `{id, nonce}`, INTERACTION_SUCCESS `{id, nonce}`,
 *   INTERACTION_FAILURE `{id, nonce, reason_code, reason}` (`reason`: ACS extension), APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE
 *   `{choices, nonce}`, INTERACTION_MODAL_CREATE `{id, channel_id, custom_id, application,
 *   title, components, nonce}` (A8);
 * - to the bot, when the interaction goes over the gateway (`bot_payload`): INTERACTION_CREATE
 *   with the full interaction, on the guild's shard (a DM's on shard 0), whatever its intents;
 * - MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE: see `messageRoutes`;
 * - CHANNEL_PINS_UPDATE: see `pinsRoutes`.
 */
export function planInteractionEvent(event: InteractionEvent): GatewayRoute[] {
  switch (event.name) {
    case 'interactions.interaction.created': {
      const { data } = event;
      const routes = [toInvoker(data, 'INTERACTION_CREATE', { id: data.interaction_id, nonce: data.nonce })];
      if (data.bot_payload) {
        routes.push({
          to: 'bot',
          applicationId: data.application_id,
          message: { kind: 'dispatch', t: 'INTERACTION_CREATE', d: data.bot_payload, guildId: data.guild_id },
        });
      }
      return routes;
    }
    case 'interactions.interaction.succeeded':
      return [
        toInvoker(event.data, 'INTERACTION_SUCCESS', {
          id: event.data.interaction_id,
          nonce: event.data.nonce,
        }),
      ];
    case 'interactions.interaction.failed': {
      const { data } = event;
      // `reason` (ACS extension): why it failed, in the words of the admin timeline.
      const d = {
        id: data.interaction_id,
        nonce: data.nonce,
        reason_code: data.reason_code,
        ...(data.reason === undefined ? {} : { reason: data.reason }),
      };
      return [toInvoker(data, 'INTERACTION_FAILURE', d)];
    }
    case 'interactions.autocomplete.answered': {
      const { data } = event;
      return [
        toInvoker(data, 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', {
          choices: data.choices,
          nonce: data.nonce,
        }),
      ];
    }
    case 'interactions.modal.created': {
      const { data } = event;
      return [
        toInvoker(data, 'INTERACTION_MODAL_CREATE', {
          id: data.interaction_id,
          channel_id: data.channel_id,
          custom_id: data.custom_id,
          application: data.application,
          title: data.title,
          components: data.components,
          nonce: data.nonce,
        }),
      ];
    }
    case 'interactions.message.created':
      return messageRoutes(
        event.data,
        'MESSAGE_CREATE',
        withGuildId(event.data.message, event.data.guild_id),
      );
    case 'interactions.message.updated':
      return messageRoutes(
        event.data,
        'MESSAGE_UPDATE',
        withGuildId(event.data.message, event.data.guild_id),
      );
    case 'interactions.message.deleted': {
      const { data } = event;
      const d = withGuildId({ id: data.message_id, channel_id: data.channel_id }, data.guild_id);
      return messageRoutes(data, 'MESSAGE_DELETE', d);
    }
    case 'interactions.channel.pins_updated':
      return pinsRoutes(event.data);
  }
}

/**
 * CHANNEL_PINS_UPDATE `{guild_id?, channel_id, last_pin_timestamp}` (D:events/gateway-events.mdx
 * §Channel Pins Update): in a guild to every user session that may view the channel and to
 * the bots told (on the guild's shard, with the GUILDS intent); in a DM to each recipient's
 * sessions and to the bots (shard 0, DIRECT_MESSAGES) (D:events/gateway.mdx §List of Intents).
 */
function pinsRoutes(data: EventPayload<'interactions.channel.pins_updated'>): GatewayRoute[] {
  const { guild_id: guildId, channel_id: channelId } = data;
  const d = {
    ...(guildId === null ? {} : { guild_id: guildId }),
    channel_id: channelId,
    last_pin_timestamp: data.last_pin_timestamp,
  };
  const t = 'CHANNEL_PINS_UPDATE';
  const bots = new Set(data.application_ids);
  const routes: GatewayRoute[] = [];
  if (guildId !== null) {
    routes.push({ to: 'channel-viewers', message: { t, d, guildId, channelId } });
  } else {
    for (const userId of new Set(data.recipient_ids)) {
      if (!bots.has(userId)) routes.push({ to: 'user', userId, message: { t, d, sessionId: null } });
    }
  }
  const intent = guildId === null ? Intent.DIRECT_MESSAGES : Intent.GUILDS;
  for (const applicationId of bots) {
    routes.push({ to: 'bot', applicationId, message: { kind: 'dispatch', t, d, guildId, intent } });
  }
  return routes;
}

/** Who an interaction's user-side events go to (the catalog's `interactionAudience`). */
type InteractionAudience = Pick<EventPayload<'interactions.interaction.succeeded'>, 'user_id' | 'session_id'>;

/** Who may see a message (the catalog's `messageAudience`). */
type MessageAudience = Omit<EventPayload<'interactions.message.deleted'>, 'message_id'>;

/** A dispatch to the invoking user: the session the invocation named, or all of theirs. */
function toInvoker(audience: InteractionAudience, t: string, d: unknown): GatewayRoute {
  return { to: 'user', userId: audience.user_id, message: { t, d, sessionId: audience.session_id } };
}

/** A message object as the gateway sends it: with `guild_id` in a guild (D:events/gateway-events.mdx §Message Create). */
function withGuildId(message: Record<string, unknown>, guildId: string | null): Record<string, unknown> {
  return guildId === null ? message : { ...message, guild_id: guildId };
}

/**
 * Where a message's dispatch goes:
 * - ephemeral (`ephemeral_user_id`): that user's sessions only; not even the bot's;
 * - in a guild: every user session whose user may view the channel, and the bot's session
 *   on the guild's shard when it asked for GUILD_MESSAGES;
 * - in a DM: the sessions of each recipient, and the bot's session on shard 0 when it
 *   asked for DIRECT_MESSAGES (the bot, a recipient too, gets it as the bot).
 * The bot's own messages carry their content whatever its MESSAGE_CONTENT intent.
 */
function messageRoutes(audience: MessageAudience, t: string, d: unknown): GatewayRoute[] {
  const { application_id: applicationId, guild_id: guildId } = audience;
  if (audience.ephemeral_user_id !== null) {
    return [{ to: 'user', userId: audience.ephemeral_user_id, message: { t, d, sessionId: null } }];
  }
  const routes: GatewayRoute[] = [];
  if (guildId !== null) {
    routes.push({ to: 'channel-viewers', message: { t, d, guildId, channelId: audience.channel_id } });
  } else {
    for (const userId of new Set(audience.recipient_ids)) {
      if (userId !== applicationId) routes.push({ to: 'user', userId, message: { t, d, sessionId: null } });
    }
  }
  const intent = guildId === null ? Intent.DIRECT_MESSAGES : Intent.GUILD_MESSAGES;
  routes.push({ to: 'bot', applicationId, message: { kind: 'dispatch', t, d, guildId, intent } });
  return routes;
}
