import type { PoolClient } from 'pg';
import { StatementParameters } from '@acs/service-kit';
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

/** How a message of an interaction is kept. */
export interface MessageRowOptions {
  isOriginal: boolean;
  ephemeral: boolean;
}

/**
 * An INSERT of a message of the interaction `record`, to run as a data-modifying CTE: the
 * row goes in only for each row of the CTE `guard` (the change it belongs to, when it
 * happened). An ephemeral message keeps its one viewer, the invoker, for its whole life:
 * its updates and deletion go to them only.
 */
export function insertMessageSql(
  params: StatementParameters,
  record: InteractionRecord,
  message: InteractionMessage,
  options: MessageRowOptions,
  guard: string,
): string {
  return `INSERT INTO message (id, interaction_id, application_id, channel_id, guild_id,
                               ephemeral_user_id, is_original, flags, body, created_at)
    SELECT ${params.add(message.id)}::bigint, ${params.add(record.id)}::bigint,
           ${params.add(record.applicationId)}::bigint, ${params.add(record.channelId)}::bigint,
           ${params.add(record.guildId)}::bigint,
           ${params.add(options.ephemeral ? record.userId : null)}::bigint,
           ${params.add(options.isOriginal)}::boolean, ${params.add(message.flags)}::int,
           ${params.add(JSON.stringify(message))}::jsonb,
           ${params.add(new Date(Date.parse(message.timestamp)))}::timestamptz
      FROM ${guard}`;
}

/** Inserts a message of the interaction `record` (see insertMessageSql). */
export async function insertMessage(
  db: PoolClient,
  record: InteractionRecord,
  message: InteractionMessage,
  options: MessageRowOptions,
): Promise<void> {
  const params = new StatementParameters();
  await db.query(insertMessageSql(params, record, message, options, '(VALUES (1)) AS once'), params.values);
}
