import type { CheckedEvent } from '@acs/events';
import type { GatewayRoute } from './gateway-route';

/** oauth's events about a user's own profile: USER_UPDATE to the user's sessions. */
export const USER_EVENTS = ['oauth.user.updated'] as const;

/** A user event, checked against the catalog. */
export type UserEvent = CheckedEvent<(typeof USER_EVENTS)[number]>;

const USER_EVENT_NAMES: ReadonlySet<string> = new Set(USER_EVENTS);

/** Whether an event is one of the user events. */
export function isUserEvent(event: CheckedEvent): event is UserEvent {
  return USER_EVENT_NAMES.has(event.name);
}

/**
 * USER_UPDATE (D:events/gateway-events.mdx §User Update: the user object) on every session
 * of the user, with the user as oauth has them now (undefined: no longer known, nothing is
 * sent). A provisional account's rename fires it (UD).
 */
export function planUserEvent(event: UserEvent, user: Record<string, unknown> | undefined): GatewayRoute[] {
  if (!user) return [];
  return [
    { to: 'user', userId: event.data.user_id, message: { t: 'USER_UPDATE', d: user, sessionId: null } },
  ];
}
