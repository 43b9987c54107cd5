import type { Pool } from 'pg';
import { withTransaction } from '@acs/service-kit';

/** A merge of a provisional account into a full account of the application (oauth's `oauth.user.merged`). */
export interface MergedAccounts {
  applicationId: string;
  sourceUserId: string;
  destinationUserId: string;
}

/**
 * Moves the provisional account's memberships of the application's lobbies to the full
 * account (facts A.4: lobby memberships move with a merge), in one transaction: where both
 * are members the full account's membership stays and the provisional one's goes. Running
 * it again changes nothing, so a redelivered event is harmless.
 */
export async function moveMergedMembers(pool: Pool, merge: MergedAccounts): Promise<number> {
  return withTransaction(pool, async (client) => {
    const params = [merge.applicationId, merge.sourceUserId, merge.destinationUserId];
    await client.query(
      `DELETE FROM "lobby"."lobby_member" s
        WHERE s.application_id = $1 AND s.user_id = $2
          AND EXISTS (SELECT 1 FROM "lobby"."lobby_member" d WHERE d.lobby_id = s.lobby_id AND d.user_id = $3)`,
      params,
    );
    const moved = await client.query(
      `UPDATE "lobby"."lobby_member" SET user_id = $3 WHERE application_id = $1 AND user_id = $2`,
      params,
    );
    return moved.rowCount ?? 0;
  });
}
