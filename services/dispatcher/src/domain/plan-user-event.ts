import type { CheckedEvent } from '@acs/events';
import type { GatewayRoute } from './gateway-route';

/** oauth's events about a user's own account: USER_UPDATE to the user's sessions, or their end. */
export const USER_EVENTS = ['oauth.user.updated', 'oauth.user.deleted'] as const;

/** How a deleted user's sessions close: the token is no longer valid (D:topics/opcodes-and-status-codes.mdx §Gateway Close Event Codes). */
export const DELETED_USER_CLOSE = { code: 4004, reason: 'Authentication failed.' } as const;

/** A user event, checked against the catalog. */
export type UserEvent = CheckedEvent<(typeof USER_EVENTS)[number]>;

const USER_EVENT_NAMES: ReadonlySet<string> = new Set(USER_EVENTS);

/** Whether an event is one of the user events. */
export function isUserEvent(event: CheckedEvent): event is UserEvent {
  return USER_EVENT_NAMES.has(event.name);
}

/**
 * `oauth.user.updated`: USER_UPDATE (D:events/gateway-events.mdx §User Update: the user
 * object) on every session of the user, with the user as oauth has them now (undefined: no
 * longer known, nothing is sent). A provisional account's rename fires it (UD).
 * `oauth.user.deleted`: every session of the user, on every replica, closes with 4004.
 */
export function planUserEvent(event: UserEvent, user: Record<string, unknown> | undefined): GatewayRoute[] {
  if (event.name === 'oauth.user.deleted') {
    const end = { t: '', d: null, sessionId: null, close: DELETED_USER_CLOSE };
    return [{ to: 'user', userId: event.data.user_id, message: end }];
  }
  if (!user) return [];
  return [
    { to: 'user', userId: event.data.user_id, message: { t: 'USER_UPDATE', d: user, sessionId: null } },
  ];
}
