import type { Pool } from 'pg';
import type { SnowflakeGenerator } from '@acs/snowflake';
import type { JsonObject } from '@acs/validation';
import { StatementParameters } from '@acs/service-kit';
import {
  CallbackType,
  planAcknowledgement,
  refuseAcknowledgement,
  type Acknowledgement,
  type MessageToUpdate,
  type ValidCallback,
} from '../domain/callbacks';
import type { AttachmentSigner, InteractionMessage } from '../domain/messages';
import { answeredOutcomeOf } from '../domain/timeline';
import { insertAttachmentsSql } from './attachment-rows';
import {
  INTERACTION_RECORD_COLUMNS,
  toInteractionRecord,
  type InteractionRecord,
  type InteractionRow,
} from './interaction-record';
import { insertMessageSql } from './message-rows';
import { answerTraceSql } from './trace-store';
import { insertEventsSql, interactionEventRows, notifySql } from './write-events';

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
    /** Signs the URLs of the files of callback 4. */
    private readonly signer: Pick<AttachmentSigner, 'sign'>,
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
    const current =
      callback.type === CallbackType.UPDATE_MESSAGE
        ? await this.messageToUpdate(record.messageId)
        : undefined;
    // What is written and emitted is the planner's (domain/callbacks/plan-acknowledgement.ts);
    // the events are checked against the catalog before anything is written.
    const plan = planAcknowledgement(record, callback, {
      current,
      botUser,
      baseUrl,
      signer: this.signer,
      nextId: () => this.ids.next(),
      now: new Date(),
    });
    const { write } = plan;
    // One statement, atomic by itself: the conditional UPDATE, and only when it passed, the
    // message, the events and the notifications. Its rows say whether it passed.
    const p = new StatementParameters();
    const acknowledged = `UPDATE interaction
          SET state = 'acknowledged', response_type = ${p.add(plan.responseType)},
              response = ${p.add(JSON.stringify(plan.response))},
              original_message_id = ${p.add(plan.originalMessageId)},
              activity_instance_id = ${p.add(plan.activityInstanceId)}
        WHERE id = ${p.add(record.id)} AND state = 'pending' AND deadline_at > now()
        RETURNING id`;
    const message =
      write.kind === 'update'
        ? `, updated_message AS (UPDATE message SET body = ${p.add(JSON.stringify(write.message))}::jsonb,
             flags = ${p.add(write.message.flags)}::int, edited_at = now()
           WHERE id = ${p.add(write.message.id)}::bigint AND EXISTS (SELECT 1 FROM acknowledged))`
        : write.kind === 'create'
          ? `, response_message AS (${insertMessageSql(p, record, write.message, { isOriginal: true, ephemeral: write.ephemeral }, 'acknowledged')})`
          : '';
    const files =
      write.kind === 'create' && write.attachments.length > 0
        ? `, response_attachments AS (${insertAttachmentsSql(p, write.message.id, record.id, record.channelId, write.attachments, 'acknowledged')})`
        : '';
    // The timeline's outcome, set with the acknowledgement it records.
    const traced = `, ${answerTraceSql(p, record.id, answeredOutcomeOf(plan.response as { type: number }), 'acknowledged')}`;
    // Named, so that each connection parses and plans it once: one text per shape (the
    // events are arrays).
    const { rowCount } = await this.pool.query({
      name:
        write.kind === 'update'
          ? 'acknowledge-with-update'
          : files
            ? 'acknowledge-with-files'
            : write.kind === 'create'
              ? 'acknowledge-with-message'
              : 'acknowledge',
      text: `WITH acknowledged AS (${acknowledged})${message}${files}${traced},
            events AS (${insertEventsSql(p, interactionEventRows(plan.events), 'acknowledged')})
       ${notifySql(p, [record.id], 'acknowledged')}`,
      values: p.values,
    });
    if (!rowCount) refuseAcknowledgement(await this.stateOf(record.id));
    return plan.made;
  }

  /** UPDATE_MESSAGE (7): the component's message, unless it was deleted. */
  private async messageToUpdate(messageId: string | null): Promise<MessageToUpdate | undefined> {
    if (messageId === null) return undefined;
    const { rows } = await this.pool.query<{ body: InteractionMessage; ephemeral_user_id: string | null }>(
      'SELECT body, ephemeral_user_id::text FROM message WHERE id = $1 AND deleted_at IS NULL',
      [messageId],
    );
    return rows[0] && { body: rows[0].body, ephemeralUserId: rows[0].ephemeral_user_id };
  }

  // The conditional UPDATE found no pending interaction within its deadline: its state as
  // the winning transaction left it (read afresh: the statement's own snapshot predates the
  // winner's commit).
  private async stateOf(interactionId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ state: string }>('SELECT state FROM interaction WHERE id = $1', [
      interactionId,
    ]);
    return rows[0]?.state;
  }
}
