import type { Pool, PoolClient } from 'pg';
import { StatementParameters, withTransaction } from '@acs/service-kit';
import { UnknownInteractionError } from '../domain/callbacks';
import {
  planFailures,
  planRecording,
  unfailedOutcomeOf,
  type Delivery,
  type FailResult,
  type FailedParties,
  type JsonRecord,
  type Launch,
  type RecordingPlan,
  type SettledInteraction,
} from '../domain/invocation';
import {
  planTrace,
  TIMEOUT_FAILURE,
  type ExpiryWindow,
  type Failure,
  type NewTrace,
} from '../domain/timeline';
import type { InteractionRecord } from './interaction-record';
import type { MadeAttachment } from '../domain/messages';
import { insertAttachments } from './attachment-rows';
import { failTraces, insertTraceSql } from './trace-store';
import { insertEventsSql, interactionEventRows, notifySql, writeEvents } from './write-events';

export type { FailResult, Launch } from '../domain/invocation';

/** An interaction that just failed: why, in the words of every place that says so. */
export interface FailedInteraction {
  id: string;
  applicationId: string;
  reason: string;
}

/** An interaction to record, as the invocation built it. */
export interface NewInteraction {
  id: string;
  applicationId: string;
  type: number;
  userId: string;
  guildId: string | null;
  channelId: string;
  /** Components and modal submits: the command of the interaction whose message they come from. */
  commandId: string | null;
  commandName: string;
  commandType: number;
  /** Components (and modals opened from one): the message the component is on. */
  messageId: string | null;
  sessionId: string | null;
  nonce: string | null;
  tokenHash: Buffer;
  delivery: Delivery;
  userInstallOnly: boolean;
  /** In a DM or group DM, every member's user id; empty in a guild. */
  recipientIds: string[];
  /** The interaction object without its token (what outcomes and messages read). */
  payload: JsonRecord;
  /** The full object, token included, for the bot's INTERACTION_CREATE (gateway delivery only). */
  botPayload: JsonRecord | null;
}

/**
 * The record of an interaction just recorded pending, as reading its row back would give
 * it (the responder's view), for the answer its delivery gets inline.
 */
export function pendingRecordOf(interaction: NewInteraction): InteractionRecord {
  return {
    id: interaction.id,
    applicationId: interaction.applicationId,
    type: interaction.type,
    userId: interaction.userId,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    sessionId: interaction.sessionId,
    nonce: interaction.nonce,
    tokenHash: interaction.tokenHash,
    state: 'pending',
    responseType: null,
    userInstallOnly: interaction.userInstallOnly,
    recipientIds: interaction.recipientIds,
    payload: interaction.payload,
    originalMessageId: null,
    followupCount: 0,
    activityInstanceId: null,
    messageId: interaction.messageId,
    pastDeadline: false,
    expired: false,
  };
}

/** What recording an invocation did: a new interaction, or the one a replayed nonce names. */
export type RecordResult = { recorded: true } | { recorded: false; interactionId: string };

/** The row fields an interaction's events are addressed with, and its trace's last refusal. */
interface AudienceRow {
  id: string;
  application_id: string;
  user_id: string;
  session_id: string | null;
  nonce: string | null;
  guild_id: string | null;
  channel_id: string;
  last_refusal: { status: number; body: unknown } | null;
}

const AUDIENCE_COLUMNS = `id::text, application_id::text, user_id::text, session_id, nonce,
  guild_id::text, channel_id::text,
  (SELECT t.refusals -> -1 FROM interaction_trace t WHERE t.interaction_id = interaction.id) AS last_refusal`;

/** The parties of a failed row, as its event's audience reads them. */
function partiesOf(row: AudienceRow): FailedParties {
  return {
    lastRefusal: row.last_refusal,
    id: row.id,
    applicationId: row.application_id,
    userId: row.user_id,
    sessionId: row.session_id,
    nonce: row.nonce,
    guildId: row.guild_id,
    channelId: row.channel_id,
  };
}

/**
 * Interactions in PostgreSQL, plain SQL on `pg`: recording an invocation (row and events
 * in one statement, a replayed nonce finding the first), failing the pending ones (one
 * conditional UPDATE, so that a racing callback either wins or finds it failed: never
 * both), and reading an outcome. Deadlines are the database's clock, as the callback's
 * conditional UPDATE reads them.
 */
export class InteractionStore {
  constructor(
    private readonly pool: Pool,
    private readonly windows: { deadlineMs: number; tokenTtlSeconds: number },
  ) {}

  /** The live interaction (its token not expired) a user's nonce already names, if any. */
  async findByNonce(userId: string, nonce: string): Promise<string | undefined> {
    const result = await this.pool.query<{ id: string }>({
      name: 'find-by-nonce',
      text: 'SELECT id::text FROM interaction WHERE user_id = $1 AND nonce = $2 AND expires_at > now()',
      values: [userId, nonce],
    });
    return result.rows[0]?.id;
  }

  /**
   * Records an invocation and its `interaction.created` event (with `launch`: acknowledged
   * at once, with the launch message and its events) in one statement, atomic by itself. A
   * nonce the user sent within the token's lifetime records nothing and names the first
   * interaction; an older interaction gives its nonce up.
   */
  async record(interaction: NewInteraction, launch?: Launch): Promise<RecordResult> {
    // What is written and emitted is the planner's (domain/invocation/plan-recording.ts).
    const plan = planRecording(interaction, launch);
    const trace = planTrace(interaction, plan.response as { type: number } | null);
    if (await insertInteraction(this.pool, interaction, plan, trace, this.windows)) return { recorded: true };
    // The nonce is taken. Rarely by an interaction whose token has expired: that one gives
    // the nonce up and the invocation is recorded after all, in one transaction so that a
    // concurrent replay finds either the old interaction or the new one.
    return withTransaction(this.pool, async (db) => {
      await db.query(
        'UPDATE interaction SET nonce = NULL WHERE user_id = $1 AND nonce = $2 AND expires_at <= now()',
        [interaction.userId, interaction.nonce],
      );
      if (await insertInteraction(db, interaction, plan, trace, this.windows)) return { recorded: true };
      const first = await db.query<{ id: string }>(
        'SELECT id::text FROM interaction WHERE user_id = $1 AND nonce = $2',
        [interaction.userId, interaction.nonce],
      );
      return { recorded: false, interactionId: first.rows[0]?.id as string };
    });
  }

  /**
   * Records a modal submit as record() does, and in the same transaction marks the modal
   * `modalInteractionId` opened as submitted: of two submits of one modal, one records and
   * the other finds it submitted (404 / 10062).
   */
  async recordModalSubmit(
    interaction: NewInteraction,
    modalInteractionId: string,
    attachments: readonly MadeAttachment[] = [],
  ): Promise<RecordResult> {
    const plan = planRecording(interaction);
    const trace = planTrace(interaction);
    return withTransaction<RecordResult>(this.pool, async (db) => {
      const claimed = await db.query(
        `UPDATE interaction SET modal_submitted_at = now()
          WHERE id = $1 AND user_id = $2 AND response_type = 9 AND modal_submitted_at IS NULL
            AND expires_at > now()`,
        [modalInteractionId, interaction.userId],
      );
      if (!claimed.rowCount) throw new UnknownInteractionError();
      if (await insertInteraction(db, interaction, plan, trace, this.windows)) {
        // The submit's files belong to its interaction (no message).
        await insertAttachments(db, null, interaction.id, interaction.channelId, attachments);
        return { recorded: true };
      }
      // The nonce names an interaction recorded meanwhile: that one is the answer, and this
      // submit marks nothing.
      throw new ReplayedNonce();
    }).catch(async (error: unknown): Promise<RecordResult> => {
      if (!(error instanceof ReplayedNonce)) throw error;
      const first = await this.findByNonce(interaction.userId, interaction.nonce ?? '');
      if (first === undefined) throw new UnknownInteractionError();
      return { recorded: false, interactionId: first };
    });
  }

  /**
   * Fails a pending interaction with `failure` (its event, its trace's outcome and the
   * outcome notification in the same transaction). With `onlyIfOverdue` (the deadline's
   * timer), only once its deadline has passed by the database's clock; the answer then
   * says how long is left.
   */
  async failIfPending(id: string, failure: Failure, onlyIfOverdue: boolean): Promise<FailResult> {
    return withTransaction(this.pool, async (db) => {
      const failed = await db.query<AudienceRow>(
        `UPDATE interaction SET state = 'failed', reason_code = $2
         WHERE id = $1 AND state = 'pending' ${onlyIfOverdue ? 'AND deadline_at <= now()' : ''}
         RETURNING ${AUDIENCE_COLUMNS}`,
        [id, failure.reasonCode],
      );
      if (failed.rows.length > 0) {
        const [done] = await announceFailures(db, failed.rows, failure, this.windows.deadlineMs);
        return { kind: 'failed', reason: done?.reason ?? '' };
      }
      const current = await db.query<{ state: string; remaining_ms: number }>(
        `SELECT state, GREATEST(0, CEIL(EXTRACT(EPOCH FROM deadline_at - now()) * 1000))::int AS remaining_ms
         FROM interaction WHERE id = $1`,
        [id],
      );
      const row = current.rows[0];
      return unfailedOutcomeOf(row && { state: row.state, remainingMs: row.remaining_ms });
    });
  }

  /**
   * Fails up to `limit` pending interactions whose deadline has passed (reason 2 TIMEOUT):
   * those whose timer a restart or another replica's crash lost. Rows another replica is
   * failing at the same time are skipped. Answers those that failed, with why.
   */
  async failOverdue(limit: number): Promise<FailedInteraction[]> {
    return withTransaction(this.pool, async (db) => {
      const failed = await db.query<AudienceRow>(
        `UPDATE interaction SET state = 'failed', reason_code = $2
         WHERE id IN (
           SELECT id FROM interaction WHERE state = 'pending' AND deadline_at <= now()
           ORDER BY deadline_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING ${AUDIENCE_COLUMNS}`,
        [limit, TIMEOUT_FAILURE.reasonCode],
      );
      return announceFailures(db, failed.rows, TIMEOUT_FAILURE, this.windows.deadlineMs);
    });
  }

  /**
   * Makes an interaction's initial-response window (`initial`), or its token and with it
   * that window (`token`), pass now: its deadline and expiry move to now, never later.
   * Answers its state, or undefined for no interaction of that application.
   */
  async expire(
    applicationId: string,
    interactionId: string,
    window: ExpiryWindow,
  ): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ state: string }>(
      `UPDATE interaction SET deadline_at = LEAST(deadline_at, now()),
         expires_at = CASE WHEN $3 = 'token' THEN LEAST(expires_at, now()) ELSE expires_at END
       WHERE id = $1 AND application_id = $2 RETURNING state`,
      [interactionId, applicationId, window],
    );
    return rows[0]?.state;
  }

  /** The interaction with its outcome, or undefined while it is pending (or unknown). */
  async settled(id: string): Promise<SettledInteraction | undefined> {
    const result = await this.pool.query<{
      state: string;
      reason_code: number | null;
      response: JsonRecord | null;
      payload: JsonRecord;
      messages: JsonRecord[];
      original_message_id: string | null;
      reason: string | null;
      steps: JsonRecord[] | null;
    }>(
      `SELECT i.state, i.reason_code, i.response, i.payload, i.original_message_id::text,
         COALESCE((SELECT json_agg(m.body ORDER BY m.id) FROM message m
                   WHERE (m.interaction_id = i.id OR m.id = i.original_message_id)
                     AND m.deleted_at IS NULL), '[]') AS messages,
         t.outcome ->> 'reason' AS reason, t.steps
       FROM interaction i LEFT JOIN interaction_trace t ON t.interaction_id = i.id WHERE i.id = $1`,
      [id],
    );
    const row = result.rows[0];
    if (!row || (row.state !== 'acknowledged' && row.state !== 'failed')) return undefined;
    return {
      state: row.state,
      reasonCode: row.reason_code,
      reason: row.reason,
      payload: row.payload,
      response: row.response,
      messages: row.messages,
      originalMessageId: row.original_message_id,
      steps: row.steps ?? [],
    };
  }

  /**
   * The message a MESSAGE command targets: one an interaction posted in this channel, not
   * deleted, and not another user's ephemeral message. Null when there is none such.
   */
  async findTargetMessage(channelId: string, messageId: string, userId: string): Promise<JsonRecord | null> {
    const result = await this.pool.query<{ body: JsonRecord }>(
      `SELECT body FROM message
       WHERE id = $1 AND channel_id = $2 AND deleted_at IS NULL
         AND (ephemeral_user_id IS NULL OR ephemeral_user_id = $3)`,
      [messageId, channelId, userId],
    );
    return result.rows[0]?.body ?? null;
  }
}

/** Rolls a modal submit's transaction back when its nonce turns out replayed. */
class ReplayedNonce extends Error {}

/**
 * Inserts the interaction row as `plan` has it unless its nonce is taken, and with it (one
 * statement: all or nothing, and nothing when the nonce is taken) its events, a launch's
 * message and the notifications; whether it was inserted.
 */
async function insertInteraction(
  db: Pick<PoolClient, 'query'>,
  interaction: NewInteraction,
  plan: RecordingPlan,
  trace: NewTrace,
  windows: { deadlineMs: number; tokenTtlSeconds: number },
): Promise<boolean> {
  const launch = plan.launchMessage;
  const p = new StatementParameters();
  const inserted = `INSERT INTO interaction (id, application_id, type, user_id, guild_id, channel_id,
       command_id, command_name, command_type, session_id, nonce, token_hash, delivery, state,
       response_type, response, user_install_only, recipient_ids, payload, original_message_id,
       activity_instance_id, message_id, deadline_at, expires_at)
     VALUES (${p.add(interaction.id)}, ${p.add(interaction.applicationId)}, ${p.add(interaction.type)},
       ${p.add(interaction.userId)}, ${p.add(interaction.guildId)}, ${p.add(interaction.channelId)},
       ${p.add(interaction.commandId)}, ${p.add(interaction.commandName)}, ${p.add(interaction.commandType)},
       ${p.add(interaction.sessionId)}, ${p.add(interaction.nonce)}, ${p.add(interaction.tokenHash)},
       ${p.add(interaction.delivery)}, ${p.add(plan.state)},
       ${p.add(plan.responseType)},
       ${p.add(plan.response === null ? null : JSON.stringify(plan.response))},
       ${p.add(interaction.userInstallOnly)}, ${p.add(interaction.recipientIds)}::bigint[],
       ${p.add(JSON.stringify(interaction.payload))}, ${p.add(plan.originalMessageId)},
       ${p.add(plan.activityInstanceId)}, ${p.add(interaction.messageId)},
       now() + ${p.add(windows.deadlineMs)} * interval '1 millisecond',
       now() + ${p.add(windows.tokenTtlSeconds)} * interval '1 second')
     ON CONFLICT (user_id, nonce) DO NOTHING
     RETURNING id`;
  const message = launch
    ? `, launch_message AS (
         INSERT INTO message (id, interaction_id, application_id, channel_id, guild_id, is_original, flags, body)
         SELECT ${p.add(launch.id)}::bigint, inserted.id, ${p.add(interaction.applicationId)}::bigint,
                ${p.add(interaction.channelId)}::bigint, ${p.add(interaction.guildId)}::bigint, true, 0,
                ${p.add(JSON.stringify(launch.body))}::jsonb
           FROM inserted)`
    : '';
  // Named, so that each connection parses and plans it once: its text is the same for
  // every invocation (the events are arrays), one text with a launch and one without.
  const { rowCount } = await db.query({
    name: launch ? 'record-launch' : 'record',
    text: `WITH inserted AS (${inserted})${message}, ${insertTraceSql(p, trace, 'inserted')},
          events AS (${insertEventsSql(p, interactionEventRows(plan.events), 'inserted')})
     ${notifySql(p, plan.outcomeIds, 'inserted')}`,
    values: p.values,
  });
  return (rowCount ?? 0) > 0;
}

/** The `interaction.failed` events of failed rows, their traces' outcomes and their outcome notifications. */
async function announceFailures(
  db: PoolClient,
  rows: AudienceRow[],
  failure: Failure,
  deadlineMs: number,
): Promise<FailedInteraction[]> {
  const plan = planFailures(rows.map(partiesOf), failure, deadlineMs);
  await failTraces(db, plan.traces);
  await writeEvents(db, interactionEventRows(plan.events), plan.outcomeIds);
  return plan.reasons;
}
