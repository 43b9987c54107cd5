import { lobbyDeletedEvent, lobbyStateEvent, memberEvents } from '../../src/domain/lobby-events';
import { ALICE, APP, BOB, CAROL, LOBBY, lobby, member } from './fixtures';

describe('lobbyStateEvent', () => {
  it('goes to the members, with the lobby as gateway events carry it', () => {
    const event = lobbyStateEvent('lobby.lobby.updated', lobby([member(ALICE), member(BOB, { flags: 1 })]));
    expect(event.name).toBe('lobby.lobby.updated');
    expect(event.data).toEqual({
      application_id: APP,
      lobby_id: LOBBY,
      user_ids: [ALICE, BOB],
      lobby: {
        id: LOBBY,
        application_id: APP,
        metadata: null,
        flags: 0,
        members: [
          { id: ALICE, metadata: null, flags: 0, connected: false },
          { id: BOB, metadata: null, flags: 1, connected: false },
        ],
        voice_states: [],
      },
    });
  });
});

describe('lobbyDeletedEvent', () => {
  it('names its audience and its reason', () => {
    expect(lobbyDeletedEvent({ id: LOBBY, applicationId: APP }, [ALICE], 'deleted')).toEqual({
      name: 'lobby.lobby.deleted',
      data: { application_id: APP, lobby_id: LOBBY, user_ids: [ALICE], reason: 'deleted' },
    });
  });
});

describe('memberEvents', () => {
  it('announces adds and updates to the members after the change', () => {
    const after = lobby([member(ALICE), member(BOB)]);
    const events = memberEvents(
      after,
      [
        { member: member(BOB), added: true },
        { member: member(ALICE), added: false },
      ],
      [],
    );
    expect(events.map((e) => [e.name, 'change' in e.data ? e.data.change : undefined])).toEqual([
      ['lobby.member.changed', 'added'],
      ['lobby.member.changed', 'updated'],
    ]);
    expect(events.map((e) => e.data.user_ids)).toEqual([
      [ALICE, BOB],
      [ALICE, BOB],
    ]);
    expect(events[0]!.data).toMatchObject({ member: { id: BOB, metadata: null, flags: 0 } });
  });

  it('tells the removed too, then sends them LOBBY_DELETE (reason removed) so their sessions leave', () => {
    const after = lobby([member(ALICE)]);
    const events = memberEvents(
      after,
      [{ member: member(ALICE), added: false }],
      [member(BOB), member(CAROL, { additionalName: 'C' })],
    );
    expect(events.map((e) => e.name)).toEqual([
      'lobby.member.changed',
      'lobby.member.changed',
      'lobby.member.changed',
      'lobby.lobby.deleted',
    ]);
    for (const event of events.slice(0, 3)) expect(event.data.user_ids).toEqual([ALICE, BOB, CAROL]);
    expect(events[2]!.data).toMatchObject({
      change: 'removed',
      member: { id: CAROL, additional_name: 'C' },
    });
    expect(events[3]!.data).toEqual({
      application_id: APP,
      lobby_id: LOBBY,
      user_ids: [BOB, CAROL],
      reason: 'removed',
    });
  });

  it('plans nothing when nothing changed', () => {
    expect(memberEvents(lobby([member(ALICE)]), [], [])).toEqual([]);
  });
});
