import type { CheckedEvent } from '@acs/events';
import type { GatewayRoute } from './gateway-route';

/**
 * The events about a user's own account: USER_UPDATE to the user's sessions, their end, or
 * the completion of a merge into it (lobby announces it once the memberships moved).
 */
export const USER_EVENTS = [
  'oauth.user.updated',
  'oauth.user.deleted',
  'oauth.user.banned',
  'lobby.merge.completed',
] as const;

/**
 * How a deleted or banned user's sessions close: the token is no longer valid
 * (D:topics/opcodes-and-status-codes.mdx §Gateway Close Event Codes).
 */
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
 * `oauth.user.deleted` and `oauth.user.banned` (a ban deletes every token at once, facts
 * A.5): every session of the user, on every replica, closes with 4004.
 * `lobby.merge.completed`: USER_MERGE_OPERATION_COMPLETED `{merge_operation_id,
 * source_user_id}` (UD:gateway/gateway-events.mdx; facts A.4) on every session of the full
 * account the provisional one was merged into.
 */
export function planUserEvent(event: UserEvent, user: Record<string, unknown> | undefined): GatewayRoute[] {
  if (event.name === 'lobby.merge.completed') {
    const d = {
      merge_operation_id: event.data.merge_operation_id,
      source_user_id: event.data.source_user_id,
    };
    const message = { t: 'USER_MERGE_OPERATION_COMPLETED', d, sessionId: null };
    return [{ to: 'user', userId: event.data.destination_user_id, message }];
  }
  if (event.name === 'oauth.user.deleted' || event.name === 'oauth.user.banned') {
    const end = { t: '', d: null, sessionId: null, close: DELETED_USER_CLOSE };
    return [{ to: 'user', userId: event.data.user_id, message: end }];
  }
  if (!user) return [];
  return [
    { to: 'user', userId: event.data.user_id, message: { t: 'USER_UPDATE', d: user, sessionId: null } },
  ];
}
