import type { PoolClient } from 'pg';
import type { MemberOccupancy } from '../domain/admit-members';
import type { MemberChange } from '../domain/lobby-events';
import { MAX_LOBBIES_PER_USER } from '../domain/lobby-limits';
import type { MemberInput } from '../domain/read-lobby-bodies';
import { jsonOrNull } from './json-or-null';
import { MEMBER_COLUMNS, memberOf, type MemberRow } from './lobby-rows';

/** What admitMembers needs to know of the lobby and of the users `ids` (the lobby row locked by the caller). */
export async function readOccupancy(
  db: PoolClient,
  applicationId: string,
  lobbyId: string,
  ids: readonly string[],
): Promise<MemberOccupancy> {
  const counts = await db.query<{ present: string[] | null; total: number; full_users: string[] | null }>(
    `SELECT (SELECT array_agg(user_id::text) FROM lobby_member WHERE lobby_id = $1 AND user_id = ANY($3::bigint[])) AS present,
            (SELECT count(*)::int FROM lobby_member WHERE lobby_id = $1) AS total,
            (SELECT array_agg(user_id::text) FROM (
               SELECT user_id FROM lobby_member WHERE application_id = $2 AND user_id = ANY($3::bigint[])
                GROUP BY user_id HAVING count(*) >= $4) AS f) AS full_users`,
    [lobbyId, applicationId, ids, MAX_LOBBIES_PER_USER],
  );
  const row = counts.rows[0] as { present: string[] | null; total: number; full_users: string[] | null };
  return { present: new Set(row.present ?? []), total: row.total, full: new Set(row.full_users ?? []) };
}

/**
 * Adds or updates `members` (already admitted); answers each with whether it was added.
 * An `additionalName` left undefined keeps the stored one.
 */
export async function upsertMembers(
  db: PoolClient,
  applicationId: string,
  lobbyId: string,
  members: readonly MemberInput[],
): Promise<MemberChange[]> {
  const upserted = await db.query<MemberRow & { inserted: boolean }>(
    `INSERT INTO lobby_member (lobby_id, user_id, application_id, metadata, flags, additional_name)
     SELECT $1, u.id, $2, u.metadata, u.flags, u.additional_name
       FROM unnest($3::bigint[], $4::jsonb[], $5::int[], $6::text[]) AS u(id, metadata, flags, additional_name)
     ON CONFLICT (lobby_id, user_id) DO UPDATE SET
       metadata = EXCLUDED.metadata,
       flags = EXCLUDED.flags,
       additional_name = CASE WHEN EXCLUDED.user_id = ANY($7::bigint[]) THEN lobby_member.additional_name
                              ELSE EXCLUDED.additional_name END
     RETURNING ${MEMBER_COLUMNS}, (xmax = 0) AS inserted`,
    [
      lobbyId,
      applicationId,
      members.map((m) => m.id),
      members.map((m) => jsonOrNull(m.metadata)),
      members.map((m) => m.flags),
      members.map((m) => m.additionalName ?? null),
      members.filter((m) => m.additionalName === undefined).map((m) => m.id),
    ],
  );
  const byId = new Map(upserted.rows.map((r) => [r.user_id, r]));
  return members.map((m) => {
    const r = byId.get(m.id) as MemberRow & { inserted: boolean };
    return { member: memberOf(r), added: r.inserted };
  });
}

/** Deletes the members `userIds` of the lobby. */
export async function deleteMembers(
  db: PoolClient,
  lobbyId: string,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db.query(`DELETE FROM lobby_member WHERE lobby_id = $1 AND user_id = ANY($2::bigint[])`, [
    lobbyId,
    userIds,
  ]);
}
