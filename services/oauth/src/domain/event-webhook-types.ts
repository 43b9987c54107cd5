/**
 * Webhook event types an application may subscribe to (OAS `event_webhooks_types` of
 * the application object, a superset of the docs' list).
 */
export const EVENT_WEBHOOK_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_UPDATE',
  'ENTITLEMENT_DELETE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
] as const;

/** One webhook event type. */
export type EventWebhookType = (typeof EVENT_WEBHOOK_TYPES)[number];
