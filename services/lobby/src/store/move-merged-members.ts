import type { Pool } from 'pg';
import { createEvent, writeOutboxRows } from '@acs/events';
import { withTransaction } from '@acs/service-kit';
import { DB_SCHEMA } from '../config';

/** A merge of a provisional account into a full account of the application (oauth's `oauth.user.merged`). */
export interface MergedAccounts {
  /** The merge's id (oauth's), echoed by USER_MERGE_OPERATION_COMPLETED. */
  mergeOperationId: string;
  applicationId: string;
  sourceUserId: string;
  destinationUserId: string;
}

/**
 * Moves the provisional account's memberships of the application's lobbies to the full
 * account (facts A.4: lobby memberships move with a merge), in one transaction: where both
 * are members the full account's membership stays and the provisional one's goes. The same
 * transaction writes `lobby.merge.completed` (USER_MERGE_OPERATION_COMPLETED to the full
 * account's sessions): the merge is complete exactly when its move commits. Running it
 * again moves nothing and announces the completion again (a redelivery after a crash
 * between the commit and the ack: [Inf] the SDK event is idempotent by `merge_operation_id`).
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
    await writeOutboxRows(client, DB_SCHEMA, [
      createEvent('lobby.merge.completed', {
        merge_operation_id: merge.mergeOperationId,
        application_id: merge.applicationId,
        source_user_id: merge.sourceUserId,
        destination_user_id: merge.destinationUserId,
      }),
    ]);
    return moved.rowCount ?? 0;
  });
}
