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

  it.each(['oauth.user.deleted', 'oauth.user.banned'] as const)(
    'ends every session of the user on every replica with 4004 (%s)',
    (name) => {
      const event = { ...userUpdated(), name } as UserEvent;
      expect(isUserEvent(event)).toBe(true);
      expect(planUserEvent(event, undefined)).toEqual([
        {
          to: 'user',
          userId: '3000',
          message: {
            t: '',
            d: null,
            sessionId: null,
            close: { code: 4004, reason: 'Authentication failed.' },
          },
        },
      ]);
    },
  );

  it('sends USER_MERGE_OPERATION_COMPLETED to the full account a merge completed into', () => {
    const event = {
      ...userUpdated(),
      name: 'lobby.merge.completed',
      data: {
        merge_operation_id: '5000',
        application_id: '4000',
        source_user_id: '3000',
        destination_user_id: '3001',
      },
    } as UserEvent;
    expect(isUserEvent(event)).toBe(true);
    expect(planUserEvent(event, undefined)).toEqual([
      {
        to: 'user',
        userId: '3001',
        message: {
          t: 'USER_MERGE_OPERATION_COMPLETED',
          d: { merge_operation_id: '5000', source_user_id: '3000' },
          sessionId: null,
        },
      },
    ]);
  });

  it('sends nothing for a user oauth no longer knows, and is among the dispatched events', () => {
    expect(planUserEvent(userUpdated(), undefined)).toEqual([]);
    expect(DISPATCHED_EVENTS).toEqual(expect.arrayContaining([...USER_EVENTS]));
  });
});
