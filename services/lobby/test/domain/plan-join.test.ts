import { planJoinEvents, planJoinMember } from '../../src/domain/plan-join';
import { ALICE, lobby, member } from './fixtures';

describe('planJoinMember', () => {
  it('makes a new user a member with the member_metadata given, flags 0', () => {
    expect(planJoinMember(ALICE, { secret: 's', memberMetadata: { a: '1' } }, undefined)).toEqual({
      id: ALICE,
      metadata: { a: '1' },
      flags: 0,
      additionalName: undefined,
      remove: false,
    });
  });

  it('keeps a member’s metadata and flags when none is given, and their additional_name always', () => {
    const old = member(ALICE, { metadata: { old: 'x' }, flags: 1, additionalName: 'Al' });
    expect(planJoinMember(ALICE, { secret: 's' }, old)).toMatchObject({
      metadata: { old: 'x' },
      flags: 1,
      additionalName: undefined,
    });
  });

  it('clears a member’s metadata given as null', () => {
    const old = member(ALICE, { metadata: { old: 'x' } });
    expect(planJoinMember(ALICE, { secret: 's', memberMetadata: null }, old).metadata).toBeNull();
  });
});

describe('planJoinEvents', () => {
  const joined = lobby([member(ALICE)]);
  const change = [{ member: member(ALICE), added: true }];

  it('announces a lobby the join created with LOBBY_CREATE only', () => {
    expect(planJoinEvents(true, { secret: 's' }, joined, change).map((e) => e.name)).toEqual([
      'lobby.lobby.created',
    ]);
  });

  it('announces the member joining a lobby that was there', () => {
    expect(planJoinEvents(false, { secret: 's' }, joined, change).map((e) => e.name)).toEqual([
      'lobby.member.changed',
    ]);
  });

  it('announces LOBBY_UPDATE first when the join overwrote the lobby’s metadata or idle timeout', () => {
    for (const input of [
      { secret: 's', lobbyMetadata: null },
      { secret: 's', idleTimeoutSeconds: 60 },
    ]) {
      expect(planJoinEvents(false, input, joined, change).map((e) => e.name)).toEqual([
        'lobby.lobby.updated',
        'lobby.member.changed',
      ]);
    }
  });

  it('announces nothing of a bot’s join of an existing lobby without settings', () => {
    expect(planJoinEvents(false, { secret: 's' }, joined, [])).toEqual([]);
  });
});
