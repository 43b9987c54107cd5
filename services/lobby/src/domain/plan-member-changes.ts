import type { LobbyRecord, MemberRecord } from './lobby-objects';
import type { MemberInput } from './read-lobby-bodies';

/** What a members list or a bulk body does to a lobby's members: who leaves, who is upserted. */
export interface MemberChangesPlan {
  /** Present members the change removes. */
  removed: MemberRecord[];
  /** Members to add or update (subject to admitMembers' limits). */
  upserts: MemberInput[];
}

/** PATCH /lobbies/{id} with `members`: the list replaces the members; those not in it leave. */
export function planMembersReplacement(
  lobby: LobbyRecord,
  members: readonly MemberInput[],
): MemberChangesPlan {
  const keep = new Set(members.map((m) => m.id));
  return { removed: lobby.members.filter((m) => !keep.has(m.userId)), upserts: [...members] };
}

/** POST …/members/bulk: members with `remove_member` leave (when present), the others are upserted. */
export function planBulkMembers(lobby: LobbyRecord, members: readonly MemberInput[]): MemberChangesPlan {
  const leaving = new Set(members.filter((m) => m.remove).map((m) => m.id));
  return {
    removed: lobby.members.filter((m) => leaving.has(m.userId)),
    upserts: members.filter((m) => !m.remove),
  };
}
