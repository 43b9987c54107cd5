import type { Pool } from 'pg';
import { createEvent, type OutboxRow } from '@acs/events';
import { snowflakeTimestamp, type SnowflakeGenerator } from '@acs/snowflake';
import type { JsonObject } from '@acs/validation';
import { StatementParameters } from '@acs/service-kit';
import {
  activityInstanceId,
  CallbackType,
  InteractionAlreadyAcknowledgedError,
  UnknownInteractionError,
  type ValidCallback,
} from '../domain/callbacks';
import {
  MessageFlag,
  UnknownMessageError,
  applyMessageEdit,
  hasFlag,
  makeAttachments,
  readMessageSource,
  type MadeAttachment,
  renderLoadingMessage,
  renderMessage,
  type InteractionMessage,
  type MessageEdit,
} from '../domain/messages';
import { insertAttachmentsSql } from './attachment-rows';
import { interactionAudienceOf, messageAudienceOf } from './event-audience';
import {
  INTERACTION_RECORD_COLUMNS,
  toInteractionRecord,
  type InteractionRecord,
  type InteractionRow,
} from './interaction-record';
import { insertMessageSql } from './message-rows';
import { insertEventsSql, notifySql } from './write-events';

/** What an initial response made. */
export interface Acknowledgement {
  /** Callbacks 4 and 5: the response message (5: the loading message); 7: the message updated. */
  message?: InteractionMessage;
  /** Callback 12: the launched Activity instance. */
  activityInstanceId?: string;
}

/** What a callback makes, with the rows of its message's attachments. */
interface MadeResponse extends Acknowledgement {
  attachments?: MadeAttachment[];
}

/**
 * Interactions as their initial response sees them. Acknowledging is one statement: a
 * conditional UPDATE that only a pending interaction within its deadline passes (so of two
 * racing callbacks, or a callback racing the deadline, exactly one wins), the response
 * message, the events, and the outcome notification, all or nothing.
 */
export class ResponseStore {
  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
  ) {}

  /** The interaction with this id, or undefined. */
  async find(interactionId: string): Promise<InteractionRecord | undefined> {
    const { rows } = await this.pool.query<InteractionRow>({
      name: 'find-interaction',
      text: `SELECT ${INTERACTION_RECORD_COLUMNS} FROM interaction WHERE id = $1`,
      values: [interactionId],
    });
    return rows[0] ? toInteractionRecord(rows[0]) : undefined;
  }

  /**
   * Records the initial response of `record`: 400 / 40060 when it already has one, 404 /
   * 10062 when it failed or its deadline passed. `botUser` (the messages' author) is needed
   * by callbacks 4 and 5; the files of 4 are served under `baseUrl`.
   */
  async acknowledge(
    record: InteractionRecord,
    callback: ValidCallback,
    botUser: JsonObject | undefined,
    baseUrl = '',
  ): Promise<Acknowledgement> {
    const updated =
      callback.type === CallbackType.UPDATE_MESSAGE ? await this.updateOf(record, callback.edit) : undefined;
    const { attachments, ...made } = updated
      ? { message: updated.message, attachments: undefined }
      : this.makeResponse(record, callback, botUser, baseUrl);
    const events: OutboxRow[] = [
      createEvent('interactions.interaction.succeeded', interactionAudienceOf(record)),
    ];
    const ephemeral = made.message !== undefined && hasFlag(made.message.flags, MessageFlag.EPHEMERAL);
    if (made.message && updated) {
      events.push(
        createEvent('interactions.message.updated', {
          ...messageAudienceOf(record, false),
          ephemeral_user_id: updated.ephemeralUserId,
          message: { ...made.message },
        }),
      );
    } else if (made.message) {
      events.push(
        createEvent('interactions.message.created', {
          ...messageAudienceOf(record, ephemeral),
          message: { ...made.message },
        }),
      );
    }
    if (callback.type === CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT) {
      events.push(
        createEvent('interactions.autocomplete.answered', {
          ...interactionAudienceOf(record),
          choices: callback.choices.map((choice) => ({ ...choice })),
        }),
      );
    }
    if (callback.type === CallbackType.MODAL) {
      events.push(
        createEvent('interactions.modal.created', {
          ...interactionAudienceOf(record),
          ...callback.modal,
          application: applicationOf(record, botUser),
        }),
      );
    }
    // Callbacks 6 and 7 answer on the component's message: it is the response (`@original`).
    const originalMessageId =
      callback.type === CallbackType.DEFERRED_UPDATE_MESSAGE || updated
        ? record.messageId
        : (made.message?.id ?? null);
    // One statement, atomic by itself: the conditional UPDATE, and only when it passed, the
    // message, the events and the notifications. Its rows say whether it passed.
    const p = new StatementParameters();
    const acknowledged = `UPDATE interaction
          SET state = 'acknowledged', response_type = ${p.add(callback.type)},
              response = ${p.add(JSON.stringify(storedResponse(callback)))},
              original_message_id = ${p.add(originalMessageId)},
              activity_instance_id = ${p.add(made.activityInstanceId ?? null)}
        WHERE id = ${p.add(record.id)} AND state = 'pending' AND deadline_at > now()
        RETURNING id`;
    const message = updated
      ? `, updated_message AS (UPDATE message SET body = ${p.add(JSON.stringify(updated.message))}::jsonb,
             flags = ${p.add(updated.message.flags)}::int, edited_at = now()
           WHERE id = ${p.add(updated.message.id)}::bigint AND EXISTS (SELECT 1 FROM acknowledged))`
      : made.message
        ? `, response_message AS (${insertMessageSql(p, record, made.message, { isOriginal: true, ephemeral }, 'acknowledged')})`
        : '';
    const files =
      !updated && made.message && attachments && attachments.length > 0
        ? `, response_attachments AS (${insertAttachmentsSql(p, made.message.id, record.id, record.channelId, attachments, 'acknowledged')})`
        : '';
    // Named, so that each connection parses and plans it once: one text per shape (the
    // events are arrays).
    const { rowCount } = await this.pool.query({
      name: updated
        ? 'acknowledge-with-update'
        : files
          ? 'acknowledge-with-files'
          : made.message
            ? 'acknowledge-with-message'
            : 'acknowledge',
      text: `WITH acknowledged AS (${acknowledged})${message}${files},
            events AS (${insertEventsSql(p, events, 'acknowledged')})
       ${notifySql(p, [record.id], 'acknowledged')}`,
      values: p.values,
    });
    if (!rowCount) await this.throwWhyNotPending(record.id);
    return made;
  }

  /**
   * UPDATE_MESSAGE (7): the component's message as the edit leaves it (its errors at
   * `data…`), and who sees it; 404 / 10008 when it was deleted meanwhile.
   */
  private async updateOf(
    record: InteractionRecord,
    edit: MessageEdit,
  ): Promise<{ message: InteractionMessage; ephemeralUserId: string | null }> {
    const { rows } = await this.pool.query<{ body: InteractionMessage; ephemeral_user_id: string | null }>(
      'SELECT body, ephemeral_user_id::text FROM message WHERE id = $1 AND deleted_at IS NULL',
      [record.messageId],
    );
    const row = rows[0];
    if (!row || record.messageId === null) throw new UnknownMessageError();
    return {
      message: applyMessageEdit(row.body, edit, new Date(), { basePath: ['data'] }),
      ephemeralUserId: row.ephemeral_user_id,
    };
  }

  // The conditional UPDATE found no pending interaction within its deadline: say why, from
  // the row as the winning transaction left it (read afresh: the statement's own snapshot
  // predates the winner's commit).
  private async throwWhyNotPending(interactionId: string): Promise<never> {
    const { rows } = await this.pool.query<{ state: string }>('SELECT state FROM interaction WHERE id = $1', [
      interactionId,
    ]);
    if (rows[0]?.state === 'acknowledged') throw new InteractionAlreadyAcknowledgedError();
    throw new UnknownInteractionError();
  }

  // The message or Activity instance a callback makes, built before the transaction opens.
  private makeResponse(
    record: InteractionRecord,
    callback: ValidCallback,
    botUser: JsonObject | undefined,
    baseUrl: string,
  ): MadeResponse {
    switch (callback.type) {
      case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
      case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
        const source = readMessageSource(record.payload, botUser ?? {});
        const id = this.ids.next();
        const createdAt = new Date(snowflakeTimestamp(id));
        if (callback.type === CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) {
          return { message: renderLoadingMessage(source, id, createdAt, callback.ephemeral) };
        }
        const attachments = makeAttachments(callback.message.newAttachments, {
          nextId: () => this.ids.next(),
          channelId: record.channelId,
          baseUrl,
          ephemeral: hasFlag(callback.message.flags, MessageFlag.EPHEMERAL),
        });
        const message = renderMessage(source, {
          id,
          createdAt,
          ...callback.message,
          attachments: attachments.map((item) => item.attachment),
        });
        return { message, attachments };
      }
      case CallbackType.LAUNCH_ACTIVITY:
        return { activityInstanceId: activityInstanceId(record.id, record.guildId, record.channelId) };
      default:
        return {};
    }
  }
}

/** The initial response as kept on the interaction: `{type, data}` as validated (the wait outcome shows it). */
function storedResponse(callback: ValidCallback): JsonObject {
  switch (callback.type) {
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE: {
      // The files are the message's attachments; their blobs are no part of the response.
      const { newAttachments, ...data } = callback.message;
      return {
        type: callback.type,
        data: {
          ...data,
          ...(newAttachments.length > 0
            ? { attachments: newAttachments.map(({ filename }) => ({ filename })) }
            : {}),
        },
      };
    }
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
      return { type: callback.type, data: { flags: callback.ephemeral ? MessageFlag.EPHEMERAL : 0 } };
    case CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
      return { type: callback.type, data: { choices: callback.choices } };
    case CallbackType.UPDATE_MESSAGE:
      return { type: callback.type, data: { ...callback.edit } };
    case CallbackType.MODAL:
      return { type: callback.type, data: { ...callback.modal } };
    default:
      return { type: callback.type };
  }
}

/**
 * The application as the user's client shows it over a modal: its id, and the bot's name
 * and avatar when the responder had them (the application object itself is oauth's).
 */
function applicationOf(record: InteractionRecord, botUser: JsonObject | undefined): JsonObject {
  return {
    id: record.applicationId,
    ...(typeof botUser?.username === 'string' ? { name: botUser.username } : {}),
    ...(botUser?.avatar !== undefined ? { icon: botUser.avatar } : {}),
    ...(typeof botUser?.id === 'string' ? { bot_id: botUser.id } : {}),
  };
}
