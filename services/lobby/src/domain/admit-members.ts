import { limitReachedError } from './lobby-errors';
import { MAX_LOBBIES_PER_USER, MAX_MEMBERS } from './lobby-limits';
import type { MemberInput } from './read-lobby-bodies';

/** How members that do not fit are treated: refused (one user added) or dropped (lists, bulk; B5). */
export type OverLimit = 'refuse' | 'drop';

/** What the store read of the lobby and of the users about to be upserted (the lobby row locked). */
export interface MemberOccupancy {
  /** The users given who are members of the lobby already. */
  present: ReadonlySet<string>;
  /** How many members the lobby has. */
  total: number;
  /** The users given who are in MAX_LOBBIES_PER_USER lobbies of the application already. */
  full: ReadonlySet<string>;
}

/**
 * The members of `members` that may be upserted, in order: members already present always
 * are; a user not yet a member who would pass MAX_MEMBERS, or who is in MAX_LOBBIES_PER_USER
 * lobbies of the application already, is refused (`refuse`: 400 / 50035) or left out (`drop`).
 */
export function admitMembers(
  members: readonly MemberInput[],
  occupancy: MemberOccupancy,
  overLimit: OverLimit,
): MemberInput[] {
  let room = MAX_MEMBERS - occupancy.total;
  const accepted: MemberInput[] = [];
  for (const member of members) {
    if (!occupancy.present.has(member.id)) {
      if (occupancy.full.has(member.id)) {
        if (overLimit === 'refuse') {
          throw limitReachedError(
            'LOBBY_USER_LIMIT',
            `Maximum number of lobbies reached (${MAX_LOBBIES_PER_USER})`,
          );
        }
        continue;
      }
      if (room <= 0) {
        if (overLimit === 'refuse') {
          throw limitReachedError(
            'LOBBY_MEMBER_LIMIT',
            `Maximum number of lobby members reached (${MAX_MEMBERS})`,
          );
        }
        continue;
      }
      room -= 1;
    }
    accepted.push(member);
  }
  return accepted;
}
