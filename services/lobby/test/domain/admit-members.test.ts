import { admitMembers } from '../../src/domain/admit-members';
import { MAX_LOBBIES_PER_USER, MAX_MEMBERS } from '../../src/domain/lobby-limits';
import { ALICE, BOB, CAROL, DAVE, input } from './fixtures';

const occupancy = (total: number, present: string[] = [], full: string[] = []) => ({
  present: new Set(present),
  total,
  full: new Set(full),
});

describe('admitMembers', () => {
  it('admits every member while the lobby has room and no user is at their lobby limit, in order', () => {
    const members = [input(ALICE), input(BOB), input(CAROL)];
    expect(admitMembers(members, occupancy(0), 'refuse')).toEqual(members);
  });

  it('drops the new users past MAX_MEMBERS, keeping members already present (lists, bulk)', () => {
    const members = [input(ALICE), input(BOB), input(CAROL), input(DAVE)];
    // One place left; ALICE is a member already and takes none.
    const admitted = admitMembers(members, occupancy(MAX_MEMBERS - 1, [ALICE]), 'drop');
    expect(admitted.map((m) => m.id)).toEqual([ALICE, BOB]);
  });

  it('refuses one user added to a full lobby with LOBBY_MEMBER_LIMIT', () => {
    expect(() => admitMembers([input(BOB)], occupancy(MAX_MEMBERS), 'refuse')).toThrow(
      expect.objectContaining({
        httpStatus: 400,
        code: 50035,
        errors: {
          _errors: [
            {
              code: 'LOBBY_MEMBER_LIMIT',
              message: `Maximum number of lobby members reached (${MAX_MEMBERS})`,
            },
          ],
        },
      }),
    );
  });

  it('updates a present member of a full lobby', () => {
    expect(admitMembers([input(ALICE)], occupancy(MAX_MEMBERS, [ALICE]), 'refuse')).toEqual([input(ALICE)]);
  });

  it('refuses (one user) or drops (lists) a new user at their lobby limit, whatever the room', () => {
    expect(() => admitMembers([input(BOB)], occupancy(0, [], [BOB]), 'refuse')).toThrow(
      expect.objectContaining({
        errors: {
          _errors: [
            {
              code: 'LOBBY_USER_LIMIT',
              message: `Maximum number of lobbies reached (${MAX_LOBBIES_PER_USER})`,
            },
          ],
        },
      }),
    );
    expect(admitMembers([input(BOB), input(CAROL)], occupancy(0, [], [BOB]), 'drop')).toEqual([input(CAROL)]);
  });

  it('lets a user at their lobby limit who is a member already be updated', () => {
    expect(admitMembers([input(BOB)], occupancy(1, [BOB], [BOB]), 'refuse')).toEqual([input(BOB)]);
  });

  it('does not count a user dropped for their lobby limit against the room', () => {
    const admitted = admitMembers([input(BOB), input(CAROL)], occupancy(MAX_MEMBERS - 1, [], [BOB]), 'drop');
    expect(admitted.map((m) => m.id)).toEqual([CAROL]);
  });
});
