import type { Pool, PoolClient } from 'pg';
import { StatementParameters } from '@acs/service-kit';
import type { MadeAttachment } from '../domain/messages';

/** Where an attachment's bytes are, as the serving route needs them. */
export interface StoredAttachment {
  blobKey: string;
  contentType: string;
  size: number;
  /** A file of an ephemeral message or of a modal submit: its one viewer's. */
  ephemeral: boolean;
}

/**
 * An INSERT of a message's new attachments, to run as a data-modifying CTE: the rows go in
 * only for each row of the CTE `guard` (the change they belong to, when it happened).
 */
export function insertAttachmentsSql(
  params: StatementParameters,
  messageId: string | null,
  interactionId: string | null,
  channelId: string,
  made: readonly MadeAttachment[],
  guard: string,
): string {
  const rows = made.map(({ attachment, blobKey }) => ({
    id: attachment.id,
    filename: attachment.filename,
    content_type: attachment.content_type,
    size: attachment.size,
    blob_key: blobKey,
  }));
  return `INSERT INTO attachment (id, message_id, interaction_id, channel_id, filename, content_type, size, blob_key)
    SELECT a.id, ${params.add(messageId)}::bigint, ${params.add(interactionId)}::bigint,
           ${params.add(channelId)}::bigint, a.filename, a.content_type, a.size, a.blob_key
      FROM ${guard}, jsonb_to_recordset(${params.add(JSON.stringify(rows))}::jsonb)
           AS a(id bigint, filename text, content_type text, size bigint, blob_key text)`;
}

/**
 * Inserts a message's new attachments (see insertAttachmentsSql); `messageId` null: a modal
 * submit's files, owned by the submit's interaction.
 */
export async function insertAttachments(
  db: PoolClient,
  messageId: string | null,
  interactionId: string | null,
  channelId: string,
  made: readonly MadeAttachment[],
): Promise<void> {
  if (made.length === 0) return;
  const params = new StatementParameters();
  await db.query(
    insertAttachmentsSql(params, messageId, interactionId, channelId, made, '(VALUES (1)) AS once'),
    params.values,
  );
}

/** Deletes attachment rows (by id, or every one of a message): the blob keys they named. */
export async function deleteAttachments(
  db: PoolClient,
  where: { ids: readonly string[] } | { messageId: string },
): Promise<string[]> {
  const { rows } = await db.query<{ blob_key: string }>(
    'ids' in where
      ? 'DELETE FROM attachment WHERE id = ANY($1::bigint[]) RETURNING blob_key'
      : 'DELETE FROM attachment WHERE message_id = $1 RETURNING blob_key',
    ['ids' in where ? where.ids : where.messageId],
  );
  return rows.map((row) => row.blob_key);
}

/** The attachments' rows as the serving route and the sweep of orphan blobs read them. */
export class AttachmentStore {
  constructor(private readonly pool: Pool) {}

  /** The attachment `id` of `channelId` named `filename`, or undefined. */
  async find(channelId: string, id: string, filename: string): Promise<StoredAttachment | undefined> {
    const { rows } = await this.pool.query<{
      blob_key: string;
      content_type: string;
      size: string;
      ephemeral: boolean;
    }>(
      `SELECT a.blob_key, a.content_type, a.size::text,
              (a.message_id IS NULL OR m.ephemeral_user_id IS NOT NULL) AS ephemeral
         FROM attachment a LEFT JOIN message m ON m.id = a.message_id
        WHERE a.id = $1 AND a.channel_id = $2 AND a.filename = $3`,
      [id, channelId, filename],
    );
    const row = rows[0];
    return row
      ? {
          blobKey: row.blob_key,
          contentType: row.content_type,
          size: Number(row.size),
          ephemeral: row.ephemeral,
        }
      : undefined;
  }

  /** Which of `blobKeys` an attachment names. */
  async referenced(blobKeys: readonly string[]): Promise<Set<string>> {
    if (blobKeys.length === 0) return new Set();
    const { rows } = await this.pool.query<{ blob_key: string }>(
      'SELECT blob_key FROM attachment WHERE blob_key = ANY($1::text[])',
      [blobKeys],
    );
    return new Set(rows.map((row) => row.blob_key));
  }
}
