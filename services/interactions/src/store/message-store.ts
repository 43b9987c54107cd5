import type { Pool, PoolClient } from 'pg';
import { createEvent } from '@acs/events';
import { snowflakeTimestamp, type SnowflakeGenerator } from '@acs/snowflake';
import type { JsonObject } from '@acs/validation';
import { withTransaction } from '@acs/service-kit';
import { MaxFollowupsError } from '../domain/callbacks';
import {
  type AttachmentSigner,
  MAX_USER_INSTALL_FOLLOWUPS,
  MessageFlag,
  UnknownMessageError,
  applyMessageEdit,
  completeLoadingMessage,
  hasFlag,
  isLoading,
  makeAttachments,
  planAttachmentEdit,
  type MadeAttachment,
  type NewAttachment,
  readMessageSource,
  renderMessage,
  type InteractionMessage,
  type MessageEdit,
  type MessageInput,
} from '../domain/messages';
import { deleteAttachments, insertAttachments } from './attachment-rows';
import { messageAudienceOf } from '../domain/interaction-events';
import type { InteractionRecord } from './interaction-record';
import { MESSAGE_ROW_COLUMNS, insertMessage, type MessageRow } from './message-rows';
import { writeEvents } from './write-events';

/** Which message of an interaction a route names: its original response, or one by id. */
export type MessageTarget = { original: true } | { original: false; id: string };

/**
 * The messages of interactions after their initial response: follow-ups, and reading,
 * editing and deleting them. Each change is one transaction with its event; a message of
 * another interaction, an unknown or a deleted one is 404 / 10008, as is `@original`
 * before the interaction has a response message.
 */
export class MessageStore {
  /**
   * `releaseBlobs` is told, once a change is committed, the blob keys of the attachments it
   * removed (an edit that drops them, a deleted message): their bytes can go.
   */
  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
    /** Signs the URLs of new files. */
    private readonly signer: Pick<AttachmentSigner, 'sign'>,
    private readonly releaseBlobs: (blobKeys: string[]) => void = () => undefined,
  ) {}

  // The attachment objects of a message's new files, served under `baseUrl`.
  private makeAttachments(
    record: InteractionRecord,
    added: readonly NewAttachment[],
    ephemeral: boolean,
    baseUrl: string,
  ): MadeAttachment[] {
    return makeAttachments(added, {
      nextId: () => this.ids.next(),
      channelId: record.channelId,
      baseUrl,
      ephemeral,
      signer: this.signer,
    });
  }

  /** The message as the API answers it. */
  async get(record: InteractionRecord, target: MessageTarget): Promise<InteractionMessage> {
    const id = targetId(record, target);
    const { rows } = await this.pool.query<{ body: InteractionMessage }>(
      `SELECT body FROM message WHERE id = $1 AND ${OWN_MESSAGE} AND deleted_at IS NULL`,
      [id, record.id, record.messageId],
    );
    if (!rows[0]) throw new UnknownMessageError();
    return rows[0].body;
  }

  /**
   * Posts a follow-up. Right after a deferred response it fills the loading message
   * instead (A5); otherwise it is a new message, the sixth of which an interaction that
   * only a user install authorizes may not have (400 / 40094). The interaction row is
   * locked for the count, so parallel follow-ups cannot pass the limit together. The
   * author is the original response's, or `botUser` when there is none (LAUNCH_ACTIVITY).
   * Its files' attachments are served under `baseUrl`.
   */
  async createFollowup(
    record: InteractionRecord,
    input: MessageInput,
    botUser: JsonObject | undefined,
    baseUrl = '',
  ): Promise<InteractionMessage> {
    return withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ followup_count: number }>(
        'SELECT followup_count FROM interaction WHERE id = $1 FOR UPDATE',
        [record.id],
      );
      const followupCount = rows[0]?.followup_count ?? 0;
      const original =
        record.originalMessageId === null
          ? undefined
          : await lockMessage(db, record, record.originalMessageId);
      if (original && !original.deleted && isLoading(original.body)) {
        const made = this.makeAttachments(
          record,
          input.newAttachments,
          original.ephemeral_user_id !== null,
          baseUrl,
        );
        const attachments = made.map((item) => item.attachment);
        const filled = completeLoadingMessage(original.body, input, new Date(), attachments);
        await saveMessage(db, filled, false);
        await insertAttachments(db, filled.id, record.id, record.channelId, made);
        await writeEvents(db, [updatedEvent(record, original, filled)]);
        return filled;
      }
      if (record.userInstallOnly && followupCount >= MAX_USER_INSTALL_FOLLOWUPS)
        throw new MaxFollowupsError();
      const source = readMessageSource(record.payload, original?.body.author ?? botUser ?? {});
      const id = this.ids.next();
      const ephemeral = hasFlag(input.flags, MessageFlag.EPHEMERAL);
      const made = this.makeAttachments(record, input.newAttachments, ephemeral, baseUrl);
      const message = renderMessage(source, {
        id,
        createdAt: new Date(snowflakeTimestamp(id)),
        ...input,
        attachments: made.map((item) => item.attachment),
        ...(record.originalMessageId !== null ? { originalResponseMessageId: record.originalMessageId } : {}),
      });
      await insertMessage(db, record, message, { isOriginal: false, ephemeral });
      await insertAttachments(db, id, record.id, record.channelId, made);
      await db.query('UPDATE interaction SET followup_count = followup_count + 1 WHERE id = $1', [record.id]);
      await writeEvents(db, [
        createEvent('interactions.message.created', {
          ...messageAudienceOf(record, ephemeral),
          message: { ...message },
        }),
      ]);
      return message;
    });
  }

  /**
   * Edits a message (PATCH): the edited message, announced as an update. New files'
   * attachments are served under `baseUrl`; those the edit drops are released.
   */
  async edit(
    record: InteractionRecord,
    target: MessageTarget,
    edit: MessageEdit,
    baseUrl = '',
  ): Promise<InteractionMessage> {
    const id = targetId(record, target);
    const { edited, released } = await withTransaction(this.pool, async (db) => {
      const row = await lockMessage(db, record, id);
      if (!row || row.deleted) throw new UnknownMessageError();
      const change = edit.attachments
        ? planAttachmentEdit(row.body.attachments ?? [], edit.attachments, (added) =>
            this.makeAttachments(record, added, row.ephemeral_user_id !== null, baseUrl),
          )
        : undefined;
      const edited = applyMessageEdit(
        row.body,
        edit,
        new Date(),
        change ? { attachments: change.attachments } : {},
      );
      await saveMessage(db, edited, !isLoading(row.body));
      let released: string[] = [];
      if (change) {
        await insertAttachments(db, id, record.id, record.channelId, change.created);
        released = await deleteAttachments(db, { ids: change.removed.map((attachment) => attachment.id) });
      }
      await writeEvents(db, [updatedEvent(record, row, edited)]);
      return { edited, released };
    });
    if (released.length > 0) this.releaseBlobs(released);
    return edited;
  }

  /** Deletes a message; later reads of it are 10008. */
  async remove(record: InteractionRecord, target: MessageTarget): Promise<void> {
    const id = targetId(record, target);
    const released = await withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ ephemeral_user_id: string | null }>(
        `UPDATE message SET deleted_at = now()
          WHERE id = $1 AND ${OWN_MESSAGE} AND deleted_at IS NULL
          RETURNING ephemeral_user_id::text`,
        [id, record.id, record.messageId],
      );
      if (!rows[0]) throw new UnknownMessageError();
      await writeEvents(db, [
        createEvent('interactions.message.deleted', {
          ...messageAudienceOf(record, rows[0].ephemeral_user_id !== null),
          message_id: id,
        }),
      ]);
      return deleteAttachments(db, { messageId: id });
    });
    if (released.length > 0) this.releaseBlobs(released);
  }
}

/** How many expired ephemeral answers one pass of the sweep retires at most. */
const EPHEMERAL_BATCH = 500;

/**
 * Retires the ephemeral answers whose interaction token has expired (15 minutes, or the
 * admin API's expire): no route reaches them any more (the token was their only way in,
 * and Discord's clients drop ephemeral messages on reload), so they are marked deleted and
 * their attachment rows removed, freeing their bytes from the application's storage. No
 * event: an ephemeral message vanishing is not announced on Discord either. The files of
 * modal submits whose token expired go too. Returns the blob keys to delete (after commit).
 * Replicas may sweep side by side (SKIP LOCKED).
 */
export async function retireExpiredEphemeral(pool: Pool): Promise<string[]> {
  return withTransaction(pool, async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `WITH expired AS (
         SELECT m.id FROM message m JOIN interaction i ON i.id = m.interaction_id
          WHERE m.ephemeral_user_id IS NOT NULL AND m.deleted_at IS NULL AND i.expires_at <= now()
          LIMIT ${EPHEMERAL_BATCH} FOR UPDATE OF m SKIP LOCKED)
       UPDATE message SET deleted_at = now() FROM expired WHERE message.id = expired.id
       RETURNING message.id::text`,
    );
    const { rows: files } =
      rows.length === 0
        ? { rows: [] }
        : await db.query<{ blob_key: string }>(
            'DELETE FROM attachment WHERE message_id = ANY($1::bigint[]) RETURNING blob_key',
            [rows.map((row) => row.id)],
          );
    // A modal submit's files (no message) are its one user's answer to the app, which has
    // what the token allows to read them: they go with the token too.
    const { rows: submitted } = await db.query<{ blob_key: string }>(
      `WITH expired AS (
         SELECT a.id FROM attachment a JOIN interaction i ON i.id = a.interaction_id
          WHERE a.message_id IS NULL AND i.expires_at <= now()
          LIMIT ${EPHEMERAL_BATCH} FOR UPDATE OF a SKIP LOCKED)
       DELETE FROM attachment USING expired WHERE attachment.id = expired.id
       RETURNING attachment.blob_key`,
    );
    return [...files, ...submitted].map((file) => file.blob_key);
  });
}

/**
 * The messages an interaction's token reaches ($2 its id, $3 its component's message): its
 * own, and for a component interaction (or a modal opened from one) the message whose
 * component was used, which callbacks 6 and 7 make its response.
 */
const OWN_MESSAGE = '(interaction_id = $2 OR id = $3::bigint)';

// `@original` is the interaction's response message, when it has one.
function targetId(record: InteractionRecord, target: MessageTarget): string {
  if (!target.original) return target.id;
  if (record.originalMessageId === null) throw new UnknownMessageError();
  return record.originalMessageId;
}

async function lockMessage(
  db: PoolClient,
  record: InteractionRecord,
  messageId: string,
): Promise<MessageRow | undefined> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_ROW_COLUMNS} FROM message WHERE id = $1 AND ${OWN_MESSAGE} FOR UPDATE`,
    [messageId, record.id, record.messageId],
  );
  return rows[0];
}

// A loading message getting its content is no edit: `edited_at` moves only for real edits.
async function saveMessage(db: PoolClient, message: InteractionMessage, edited: boolean): Promise<void> {
  await db.query(
    `UPDATE message SET body = $2, flags = $3, edited_at = CASE WHEN $4 THEN now() ELSE edited_at END
      WHERE id = $1`,
    [message.id, JSON.stringify(message), message.flags, edited],
  );
}

function updatedEvent(record: InteractionRecord, row: MessageRow, message: InteractionMessage) {
  return createEvent('interactions.message.updated', {
    ...messageAudienceOf(record, row.ephemeral_user_id !== null),
    message: { ...message },
  });
}
