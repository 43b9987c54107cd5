import type { Pool } from 'pg';
import { MAX_LOBBIES_PER_USER, MAX_MEMBERS } from '../domain/lobby-limits';

/** An unmerge: a game identity left its full account for a new provisional account (oauth's `oauth.user.unmerged`). */
export interface UnmergedAccounts {
  applicationId: string;
  fullUserId: string;
  provisionalUserId: string;
}

/**
 * Copies the full account's memberships of the application's lobbies to the new provisional
 * account (facts A.4b: "active lobby memberships of the app" are copied), with their
 * metadata, flags and additional name, in one statement. [Inf] A copy, as the facts say:
 * the full account stays a member too (its tokens for the app are gone; the bot may remove
 * it). A lobby already full (MAX_MEMBERS) is skipped, and at most MAX_LOBBIES_PER_USER
 * lobbies are copied, the oldest memberships first. Running it again copies nothing more,
 * so a redelivered event is harmless.
 */
export async function copyUnmergedMembers(pool: Pool, unmerge: UnmergedAccounts): Promise<number> {
  const copied = await pool.query(
    `INSERT INTO "lobby"."lobby_member" (lobby_id, user_id, application_id, metadata, flags, additional_name)
     SELECT m.lobby_id, $3, m.application_id, m.metadata, m.flags, m.additional_name
       FROM "lobby"."lobby_member" m
      WHERE m.application_id = $1 AND m.user_id = $2
        AND (SELECT count(*) FROM "lobby"."lobby_member" o WHERE o.lobby_id = m.lobby_id) < $4
      ORDER BY m.joined_at, m.lobby_id
      LIMIT $5
     ON CONFLICT (lobby_id, user_id) DO NOTHING`,
    [unmerge.applicationId, unmerge.fullUserId, unmerge.provisionalUserId, MAX_MEMBERS, MAX_LOBBIES_PER_USER],
  );
  return copied.rowCount ?? 0;
}
