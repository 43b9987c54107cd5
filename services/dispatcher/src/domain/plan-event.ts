import type { CheckedEvent } from '@acs/events';
import { INTERACTION_EVENTS } from './plan-interaction-event';
import { GUILD_EVENTS } from './plan-guild-event';
import { LOBBY_EVENTS } from './plan-lobby-event';
import { USER_EVENTS } from './plan-user-event';
import { VOICE_EVENTS } from './plan-voice-event';
import { CHANNEL_EVENTS } from './plan-channel-event';
import { CHANNEL_MESSAGE_EVENTS } from './plan-channel-message-event';
import { AUTOMOD_EVENTS } from './plan-automod-event';

/** The events about an application the dispatcher delivers to it (webhooks, bot dispatches). */
export const APPLICATION_EVENTS = [
  'oauth.application.authorized',
  'oauth.application.deauthorized',
  'oauth.application.bot_token_reset',
  'permissions.application_command_permissions.updated',
  'oauth.entitlement.created',
  'oauth.entitlement.updated',
  'oauth.entitlement.deleted',
  'oauth.subscription.created',
  'oauth.subscription.updated',
] as const;

/** The gateway dispatch of each monetization event (D:events/gateway-events.mdx §Entitlements, §Subscriptions). */
const MONETIZATION_DISPATCHES = {
  'oauth.entitlement.created': 'ENTITLEMENT_CREATE',
  'oauth.entitlement.updated': 'ENTITLEMENT_UPDATE',
  'oauth.entitlement.deleted': 'ENTITLEMENT_DELETE',
  'oauth.subscription.created': 'SUBSCRIPTION_CREATE',
  'oauth.subscription.updated': 'SUBSCRIPTION_UPDATE',
} as const;

/** The events the dispatcher delivers; it does not read the others. */
export const DISPATCHED_EVENTS = [
  ...APPLICATION_EVENTS,
  ...INTERACTION_EVENTS,
  ...LOBBY_EVENTS,
  ...USER_EVENTS,
  ...VOICE_EVENTS,
  ...GUILD_EVENTS,
  ...CHANNEL_EVENTS,
  ...CHANNEL_MESSAGE_EVENTS,
  ...AUTOMOD_EVENTS,
] as const;

/** The name of an event the dispatcher delivers. */
export type DispatchedEventName = (typeof DISPATCHED_EVENTS)[number];

/** An event the dispatcher delivers, checked against the catalog. */
export type DispatchedEvent = CheckedEvent<DispatchedEventName>;

/** An event about an application, checked against the catalog. */
export type ApplicationEvent = CheckedEvent<(typeof APPLICATION_EVENTS)[number]>;

/** A webhook event to deliver, before the objects it names are looked up. */
export interface WebhookPlan {
  /** APPLICATION_AUTHORIZED, APPLICATION_DEAUTHORIZED or ENTITLEMENT_CREATE. */
  type: string;
  /** The user to embed as `data.user`. */
  userId?: string;
  /** The guild to embed as `data.guild`. */
  guildId?: string;
  /** The rest of `data`, as it will be sent. */
  data: Record<string, unknown>;
}

/** What the application's bot sessions receive. */
export type GatewayPlan =
  | { kind: 'dispatch'; t: string; d: unknown; guildId: string | null }
  | { kind: 'guild-create'; guildId: string }
  | { kind: 'guild-delete'; guildId: string }
  | { kind: 'invalidate-sessions' };

/** Who gets what for one event. */
export interface EventPlan {
  applicationId: string;
  webhook: WebhookPlan | null;
  gateway: GatewayPlan | null;
}

/**
 * The deliveries one event makes (D:events/webhook-events.mdx, D:events/gateway-events.mdx):
 * - `oauth.application.authorized`: APPLICATION_AUTHORIZED webhook; GUILD_CREATE to the
 *   bot when it joined a guild (`bot` scope, guild install).
 * - `oauth.application.deauthorized`: APPLICATION_DEAUTHORIZED webhook; GUILD_DELETE to
 *   the bot when it is a guild's installation that ended.
 * - `oauth.application.bot_token_reset`: the bot's sessions end (4004 on their next use).
 * - `permissions.application_command_permissions.updated`: APPLICATION_COMMAND_PERMISSIONS_UPDATE.
 * - `oauth.entitlement.*`, `oauth.subscription.*`: ENTITLEMENT_CREATE/UPDATE/DELETE and
 *   SUBSCRIPTION_CREATE/UPDATE to the bot (no intent gates them). Only ENTITLEMENT_CREATE
 *   is a documented webhook event (D:events/webhook-events.mdx; discord-api-types marks
 *   UPDATE and DELETE "not yet documented"), so only it goes to the event webhook, its
 *   `data` the entitlement. A guild's entitlement goes to the guild's shard, everything
 *   else to shard 0, as DMs do (our reading: the docs name no shard for them).
 */
export function planEvent(event: ApplicationEvent): EventPlan {
  const applicationId = event.data.application_id;
  switch (event.name) {
    case 'oauth.application.authorized': {
      const { integration_type: integrationType, guild_id: guildId, scopes } = event.data;
      return {
        applicationId,
        webhook: {
          type: 'APPLICATION_AUTHORIZED',
          userId: event.data.user_id,
          guildId: integrationType === 0 ? guildId : undefined,
          data: { integration_type: integrationType, scopes },
        },
        gateway:
          integrationType === 0 && guildId && scopes.includes('bot')
            ? { kind: 'guild-create', guildId }
            : null,
      };
    }
    case 'oauth.application.deauthorized': {
      const { guild_id: guildId, integration_type: integrationType } = event.data;
      return {
        applicationId,
        webhook: { type: 'APPLICATION_DEAUTHORIZED', userId: event.data.user_id, data: {} },
        // Removing the bot from a guild uninstalls the application there: the bot leaves it.
        gateway: guildId && integrationType !== 1 ? { kind: 'guild-delete', guildId } : null,
      };
    }
    case 'oauth.application.bot_token_reset':
      return { applicationId, webhook: null, gateway: { kind: 'invalidate-sessions' } };
    case 'oauth.entitlement.created':
    case 'oauth.entitlement.updated':
    case 'oauth.entitlement.deleted': {
      const { entitlement } = event.data;
      const t = MONETIZATION_DISPATCHES[event.name];
      return {
        applicationId,
        webhook: t === 'ENTITLEMENT_CREATE' ? { type: t, data: entitlement } : null,
        gateway: { kind: 'dispatch', t, d: entitlement, guildId: entitlement.guild_id ?? null },
      };
    }
    case 'oauth.subscription.created':
    case 'oauth.subscription.updated':
      return {
        applicationId,
        webhook: null,
        gateway: {
          kind: 'dispatch',
          t: MONETIZATION_DISPATCHES[event.name],
          d: event.data.subscription,
          guildId: null,
        },
      };
    case 'permissions.application_command_permissions.updated':
      return {
        applicationId,
        webhook: null,
        gateway: {
          kind: 'dispatch',
          t: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
          d: event.data,
          guildId: event.data.guild_id,
        },
      };
  }
}
