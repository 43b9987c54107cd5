import type { Pool, PoolClient } from 'pg';
import { createEvent, type OutboxRow } from '@acs/events';
import type { SnowflakeGenerator } from '@acs/snowflake';
import type { JsonObject } from '@acs/validation';
import {
  assertMayBulkDelete,
  assertMayDelete,
  judgeEdit,
  planCreateMessage,
  planEditMessage,
  type Caller,
  type ChannelMessage,
  type CreateMessageRequest,
  type MentionPolicy,
  type MessagesQuery,
} from '../domain/channel-messages';
import {
  type AttachmentSigner,
  NONCE_WINDOW_MS,
  UnknownMessageError,
  makeAttachments,
  planAttachmentEdit,
  type MadeAttachment,
  type MessageEdit,
  type NewAttachment,
} from '../domain/messages';
import type { ChannelAccess } from '../domain/pins';
import { deleteAttachments, insertAttachments } from './attachment-rows';
import { withTransaction } from '@acs/service-kit';
import { writeEvents } from './write-events';

/** Where a channel route acts: the channel, the caller and what permissions said of them there. */
export interface ChannelPlace {
  channelId: string;
  caller: Caller;
  access: ChannelAccess;
}

/** A Create Message to store. */
export interface CreateMessageCommand extends ChannelPlace {
  request: CreateMessageRequest;
  /** A forward: what the caller may do in the source's channel. */
  sourceAccess?: ChannelAccess;
  /** A bot's application flags (0 for a user). */
  applicationFlags?: number;
  author: JsonObject;
  mentionedUsers: JsonObject[];
  /** The guild roles the content names that allowed_mentions lets it ping. */
  mentionedRoleIds?: string[];
  /** The author's partial member in a guild: MESSAGE_CREATE carries it (not the HTTP answer). */
  member?: JsonObject | null;
  /** Where the files' attachments are served. */
  baseUrl: string;
  /** More to write in the message's transaction once it is (AutoMod's alerts and events). */
  alsoWrite?: (db: PoolClient, message: ChannelMessage) => Promise<void>;
}

/** An Edit Message to apply. */
export interface EditMessageCommand extends ChannelPlace {
  messageId: string;
  edit: MessageEdit;
  policy: MentionPolicy;
  mentionedUsers: JsonObject[];
  baseUrl: string;
  /** More to write in the edit's transaction once it is (AutoMod's alerts and events). */
  alsoWrite?: (db: PoolClient, message: ChannelMessage) => Promise<void>;
}

/** A message the channel routes may act on: in the channel, not deleted, not ephemeral. */
const VISIBLE = 'channel_id = $1 AND deleted_at IS NULL AND ephemeral_user_id IS NULL';

/**
 * The messages of channels, whoever made them (interaction responses, follow-ups, linked
 * lobbies' copies, and the messages of `POST /channels/{id}/messages`), as the channel
 * routes read and change them. Each change reads what it needs, asks the domain's planner,
 * and applies the plan with its event in one transaction.
 */
export class ChannelMessageStore {
  /** `releaseBlobs` is told, after commit, the blob keys of attachments a change removed. */
  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
    /** Signs the URLs of new files. */
    private readonly signer: Pick<AttachmentSigner, 'sign'>,
    private readonly releaseBlobs: (blobKeys: string[]) => void = () => undefined,
  ) {}

  /**
   * Creates a message (planCreateMessage) with its attachments and MESSAGE_CREATE's event.
   * With `enforce_nonce`, the author's nonce is locked for the transaction, so that two
   * racing sends of one nonce make one message.
   */
  async create(command: CreateMessageCommand): Promise<ChannelMessage> {
    const { request, channelId } = command;
    return withTransaction(this.pool, async (db) => {
      let earlier: ChannelMessage | undefined;
      if (request.enforceNonce && request.nonce !== undefined) {
        const nonce = String(request.nonce);
        await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `nonce:${command.caller.userId}:${nonce}`,
        ]);
        const { rows } = await db.query<{ body: ChannelMessage }>(
          `SELECT body FROM message
            WHERE author_id = $1 AND nonce = $2 AND deleted_at IS NULL
              AND created_at > now() - make_interval(secs => $3)
            ORDER BY id DESC LIMIT 1`,
          [command.caller.userId, nonce, NONCE_WINDOW_MS / 1000],
        );
        earlier = rows[0]?.body;
      }
      const replyTarget = request.reply
        ? await findVisible(db, channelId, request.reply.messageId)
        : undefined;
      const { forward } = request;
      const forwardSource = forward ? await findVisible(db, forward.channelId, forward.messageId) : undefined;
      const id = this.ids.next();
      const made = this.make(channelId, command.baseUrl, request.input.newAttachments);
      const plan = planCreateMessage({
        id,
        channelId,
        caller: command.caller,
        author: command.author,
        access: command.access,
        request,
        attachments: made.map((item) => item.attachment),
        mentionedUsers: command.mentionedUsers,
        mentionedRoleIds: command.mentionedRoleIds ?? [],
        replyTarget,
        earlier,
        forwardSource,
        ...(command.sourceAccess ? { sourceAccess: command.sourceAccess } : {}),
        applicationFlags: command.applicationFlags ?? 0,
        now: new Date(),
      });
      if (plan.kind === 'existing') return plan.message;
      const { row } = plan;
      await db.query(
        `INSERT INTO message (id, application_id, channel_id, guild_id, is_original, flags, body, created_at,
                              author_id, nonce)
         VALUES ($1, $2, $3, $4, false, $5, $6, $7, $8, $9)`,
        [
          row.message.id,
          row.applicationId,
          channelId,
          row.guildId,
          row.message.flags,
          JSON.stringify(row.message),
          new Date(Date.parse(row.message.timestamp)),
          row.authorId,
          row.nonce,
        ],
      );
      await insertAttachments(db, row.message.id, null, channelId, made);
      await writeEvents(db, [
        createEvent('interactions.channel_message.created', {
          ...audienceOf(command),
          // D:events/gateway-events.mdx §Message Create: a guild message's event carries the
          // author's partial member.
          message: command.member ? { ...plan.answer, member: command.member } : { ...plan.answer },
        }),
      ]);
      await command.alsoWrite?.(db, plan.answer);
      return plan.answer;
    });
  }

  /**
   * Trigger Typing Indicator: TYPING_START's event, at `now` (unix seconds), for a caller
   * planTyping let type. Nothing else is stored: the indicator is the event.
   */
  async typing(place: ChannelPlace, now: Date): Promise<void> {
    await withTransaction(this.pool, (db) =>
      writeEvents(db, [
        createEvent('interactions.typing.started', {
          ...audienceOf(place),
          user_id: place.caller.userId,
          timestamp: Math.floor(now.getTime() / 1000),
        }),
      ]),
    );
  }

  /** A page of the channel's messages (see MessagesQuery), newest first. */
  async list(channelId: string, query: MessagesQuery): Promise<ChannelMessage[]> {
    const page = async (condition: string, order: 'ASC' | 'DESC', limit: number, id?: string) => {
      const { rows } = await this.pool.query<{ body: ChannelMessage }>(
        `SELECT body FROM message WHERE ${VISIBLE} ${condition} ORDER BY id ${order} LIMIT $2`,
        id === undefined ? [channelId, limit] : [channelId, limit, id],
      );
      return rows.map((row) => row.body);
    };
    switch (query.anchor) {
      case 'latest':
        return page('', 'DESC', query.limit);
      case 'before':
        return page('AND id < $3', 'DESC', query.limit, query.id);
      case 'after':
        return (await page('AND id > $3', 'ASC', query.limit, query.id)).reverse();
      case 'around': {
        // The anchor and the newer half, then the older half (D §Get Channel Messages: "around this id").
        const newer = await page('AND id >= $3', 'ASC', Math.ceil(query.limit / 2), query.id);
        const older = await page('AND id < $3', 'DESC', Math.floor(query.limit / 2), query.id);
        return [...newer.reverse(), ...older];
      }
    }
  }

  /** A message of the channel: 404 / 10008 when it is not there (unknown, deleted, ephemeral, elsewhere). */
  async get(channelId: string, messageId: string): Promise<ChannelMessage> {
    const { rows } = await this.pool.query<{ body: ChannelMessage }>(
      `SELECT body FROM message WHERE ${VISIBLE} AND id = $2`,
      [channelId, messageId],
    );
    if (!rows[0]) throw new UnknownMessageError();
    return rows[0].body;
  }

  /** Edits a message (judgeEdit, then planEditMessage) with MESSAGE_UPDATE's event. */
  async edit(command: EditMessageCommand): Promise<ChannelMessage> {
    const { channelId } = command;
    const { edited, released } = await withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ body: ChannelMessage; interaction_id: string | null }>(
        `SELECT body, interaction_id::text FROM message WHERE ${VISIBLE} AND id = $2 FOR UPDATE`,
        [channelId, command.messageId],
      );
      const row = rows[0];
      if (!row) throw new UnknownMessageError();
      judgeEdit(row.body, command.caller, command.access, command.edit);
      const spec = command.edit.attachments;
      const change = spec
        ? planAttachmentEdit(row.body.attachments, spec, (added) =>
            this.make(channelId, command.baseUrl, added),
          )
        : undefined;
      const edited = planEditMessage(row.body, command.edit, {
        ...(change ? { attachments: change.attachments } : {}),
        mentionedUsers: command.mentionedUsers,
        policy: command.policy,
        access: command.access,
        now: new Date(),
      });
      await db.query('UPDATE message SET body = $2, flags = $3, edited_at = now() WHERE id = $1', [
        command.messageId,
        JSON.stringify(edited),
        edited.flags,
      ]);
      let released: string[] = [];
      if (change) {
        await insertAttachments(db, command.messageId, row.interaction_id, channelId, change.created);
        released = await deleteAttachments(db, { ids: change.removed.map((attachment) => attachment.id) });
      }
      await writeEvents(db, [
        createEvent('interactions.channel_message.updated', {
          ...audienceOf(command),
          message: { ...edited },
        }),
      ]);
      await command.alsoWrite?.(db, edited);
      return { edited, released };
    });
    if (released.length > 0) this.releaseBlobs(released);
    return edited;
  }

  /** Deletes a message (assertMayDelete) with MESSAGE_DELETE's event; later reads are 10008. */
  async remove(place: ChannelPlace, messageId: string): Promise<void> {
    const released = await withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ body: ChannelMessage }>(
        `SELECT body FROM message WHERE ${VISIBLE} AND id = $2 FOR UPDATE`,
        [place.channelId, messageId],
      );
      const row = rows[0];
      if (!row) throw new UnknownMessageError();
      assertMayDelete(row.body, place.caller, place.access);
      await db.query('UPDATE message SET deleted_at = now() WHERE id = $1', [messageId]);
      await writeEvents(db, [deletedEvent(place, messageId)]);
      return deleteAttachments(db, { messageId });
    });
    if (released.length > 0) this.releaseBlobs(released);
  }

  /**
   * Bulk Delete Messages (assertMayBulkDelete): the messages of `ids` that are in the
   * channel go (unknown ones are passed over), with one MESSAGE_DELETE_BULK event naming them;
   * none there, nothing is announced.
   */
  async bulkRemove(place: ChannelPlace, ids: readonly string[]): Promise<void> {
    assertMayBulkDelete(place.access);
    const released = await withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE message SET deleted_at = now()
          WHERE ${VISIBLE} AND id = ANY($2::bigint[])
          RETURNING id::text`,
        [place.channelId, ids],
      );
      if (rows.length === 0) return [];
      const deleted = new Set(rows.map((row) => row.id));
      await writeEvents(db, [
        createEvent('interactions.channel_message.bulk_deleted', {
          ...audienceOf(place),
          message_ids: ids.filter((id) => deleted.has(id)),
        }),
      ]);
      const { rows: blobs } = await db.query<{ blob_key: string }>(
        'DELETE FROM attachment WHERE message_id = ANY($1::bigint[]) RETURNING blob_key',
        [[...deleted]],
      );
      return blobs.map((row) => row.blob_key);
    });
    if (released.length > 0) this.releaseBlobs(released);
  }

  // The attachment objects of new files, served under `baseUrl`.
  private make(channelId: string, baseUrl: string, added: readonly NewAttachment[]): MadeAttachment[] {
    return makeAttachments(added, {
      nextId: () => this.ids.next(),
      channelId,
      baseUrl,
      ephemeral: false,
      signer: this.signer,
    });
  }
}

/** The message of the channel `channelId` by id, when the channel routes may act on it. */
async function findVisible(
  db: PoolClient,
  channelId: string,
  messageId: string,
): Promise<ChannelMessage | undefined> {
  const { rows } = await db.query<{ body: ChannelMessage }>(
    `SELECT body FROM message WHERE ${VISIBLE} AND id = $2`,
    [channelId, messageId],
  );
  return rows[0]?.body;
}

/** Who a channel's message events go to. */
export function audienceOf(place: ChannelPlace) {
  return {
    channel_id: place.channelId,
    guild_id: place.access.guildId,
    recipient_ids: place.access.guildId === null ? place.access.recipientIds : [],
  };
}

function deletedEvent(place: ChannelPlace, messageId: string): OutboxRow {
  return createEvent('interactions.channel_message.deleted', { ...audienceOf(place), message_id: messageId });
}
