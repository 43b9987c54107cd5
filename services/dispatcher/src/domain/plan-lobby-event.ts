import type { CheckedEvent } from '@acs/events';
import type { GatewayRoute } from './gateway-route';

/** The lobby service's events: LOBBY_* to the members' user sessions; messages also as webhook events. */
export const LOBBY_EVENTS = [
  'lobby.lobby.created',
  'lobby.lobby.updated',
  'lobby.lobby.deleted',
  'lobby.member.changed',
  'lobby.message.created',
  'lobby.message.updated',
] as const;

/** The name of a lobby event. */
export type LobbyEventName = (typeof LOBBY_EVENTS)[number];

/** A lobby event, checked against the catalog. */
export type LobbyEvent = CheckedEvent<LobbyEventName>;

const LOBBY_EVENT_NAMES: ReadonlySet<string> = new Set(LOBBY_EVENTS);

/** Whether an event is one of the lobby service's. */
export function isLobbyEvent(event: CheckedEvent): event is LobbyEvent {
  return LOBBY_EVENT_NAMES.has(event.name);
}

/** A lobby message's webhook event, before the application's subscription is checked. */
export interface LobbyWebhookPlan {
  /** LOBBY_MESSAGE_CREATE or LOBBY_MESSAGE_UPDATE. */
  type: string;
  /** The lobby's `override_event_webhooks_url`, which takes the application's URL's place; null for that one. */
  overrideUrl: string | null;
  data: Record<string, unknown>;
}

/** What one lobby event delivers. */
export interface LobbyPlan {
  gateway: GatewayRoute[];
  webhook: LobbyWebhookPlan | null;
}

const MEMBER_DISPATCH = {
  added: 'LOBBY_MEMBER_ADD',
  updated: 'LOBBY_MEMBER_UPDATE',
  removed: 'LOBBY_MEMBER_REMOVE',
};

/**
 * The deliveries of a lobby event (UD:gateway/gateway-events.mdx §Lobbies; D:events/webhook-events.mdx):
 * each user of `user_ids` gets, on every session of theirs (a Bearer session: of the lobby's
 * application, `userSessionReceives`), LOBBY_CREATE / LOBBY_UPDATE (the
 * gateway lobby), LOBBY_DELETE `{id, reason}`, LOBBY_MEMBER_ADD / _UPDATE / _REMOVE `{member,
 * lobby_id, application_id}`, LOBBY_MESSAGE_CREATE / _UPDATE (the message). A message is also
 * the application's LOBBY_MESSAGE_CREATE / _UPDATE webhook event (B4: bots get no LOBBY_* dispatch).
 */
export function planLobbyEvent(event: LobbyEvent): LobbyPlan {
  const { data } = event;
  // One message object for every member: the bus encodes it once.
  const toMembers = (t: string, d: unknown): GatewayRoute[] => {
    const message = { t, d, sessionId: null, lobbyOf: data.application_id };
    return [...new Set(data.user_ids)].map((userId) => ({ to: 'user', userId, message }));
  };
  switch (event.name) {
    case 'lobby.lobby.created':
      return { gateway: toMembers('LOBBY_CREATE', event.data.lobby), webhook: null };
    case 'lobby.lobby.updated':
      return { gateway: toMembers('LOBBY_UPDATE', event.data.lobby), webhook: null };
    case 'lobby.lobby.deleted':
      return {
        gateway: toMembers('LOBBY_DELETE', { id: data.lobby_id, reason: event.data.reason }),
        webhook: null,
      };
    case 'lobby.member.changed': {
      const d = { member: event.data.member, lobby_id: data.lobby_id, application_id: data.application_id };
      return { gateway: toMembers(MEMBER_DISPATCH[event.data.change], d), webhook: null };
    }
    case 'lobby.message.created':
    case 'lobby.message.updated': {
      const type = event.name === 'lobby.message.created' ? 'LOBBY_MESSAGE_CREATE' : 'LOBBY_MESSAGE_UPDATE';
      return {
        gateway: toMembers(type, event.data.message),
        webhook: { type, overrideUrl: event.data.override_event_webhooks_url, data: event.data.message },
      };
    }
  }
}

/**
 * Where a recorded webhook delivery is POSTed: the application's URL as it is now, except
 * for a lobby message, which goes where it was planned (its lobby's override URL, or the
 * application's URL of that moment).
 */
export function deliveryUrlOf(
  delivery: { eventType: string; url: string },
  applicationUrl: string | null,
): string | null {
  return delivery.eventType.startsWith('LOBBY_MESSAGE_') ? delivery.url : applicationUrl;
}
