import { DISPATCHED_EVENTS } from '../../src/domain/plan-event';
import { isUserEvent, planUserEvent, USER_EVENTS, type UserEvent } from '../../src/domain/plan-user-event';

const userUpdated = (): UserEvent =>
  ({
    id: 'e1',
    name: 'oauth.user.updated',
    occurredAt: '2026-01-01T00:00:00.000Z',
    data: { user_id: '3000' },
  }) as UserEvent;

describe('planUserEvent', () => {
  it('sends USER_UPDATE with the user to every session of the user', () => {
    const event = userUpdated();
    expect(isUserEvent(event)).toBe(true);
    const user = { id: '3000', username: 'p', global_name: 'New' };
    expect(planUserEvent(event, user)).toEqual([
      { to: 'user', userId: '3000', message: { t: 'USER_UPDATE', d: user, sessionId: null } },
    ]);
  });

  it('sends nothing for a user oauth no longer knows, and is among the dispatched events', () => {
    expect(planUserEvent(userUpdated(), undefined)).toEqual([]);
    expect(DISPATCHED_EVENTS).toEqual(expect.arrayContaining([...USER_EVENTS]));
  });
});
