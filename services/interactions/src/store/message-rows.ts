import type { PoolClient } from 'pg';
import type { InteractionMessage } from '../domain/messages';
import type { InteractionRecord } from './interaction-record';

/** A message row as the message routes read it. */
export interface MessageRow {
  id: string;
  body: InteractionMessage;
  ephemeral_user_id: string | null;
  deleted: boolean;
}

/** The columns of a MessageRow. */
export const MESSAGE_ROW_COLUMNS =
  'id::text, body, ephemeral_user_id::text, deleted_at IS NOT NULL AS deleted';

/**
 * Inserts a message of the interaction `record`. An ephemeral message keeps its one
 * viewer, the invoker, for its whole life: its updates and deletion go to them only.
 */
export async function insertMessage(
  db: PoolClient,
  record: InteractionRecord,
  message: InteractionMessage,
  options: { isOriginal: boolean; ephemeral: boolean },
): Promise<void> {
  await db.query(
    `INSERT INTO message (id, interaction_id, application_id, channel_id, guild_id,
                          ephemeral_user_id, is_original, flags, body, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      message.id,
      record.id,
      record.applicationId,
      record.channelId,
      record.guildId,
      options.ephemeral ? record.userId : null,
      options.isOriginal,
      message.flags,
      JSON.stringify(message),
      new Date(Date.parse(message.timestamp)),
    ],
  );
}
