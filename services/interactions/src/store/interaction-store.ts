import type { Pool, PoolClient } from 'pg';
import { createEvent, type OutboxRow } from '@acs/events';
import type { JsonRecord, SettledInteraction } from '../domain/invocation';
import type { Delivery } from '../domain/invocation';
import { withTransaction } from './with-transaction';
import { notifyOutcome, writeEvents } from './write-events';

/** An interaction to record, as the invocation built it. */
export interface NewInteraction {
  id: string;
  applicationId: string;
  type: number;
  userId: string;
  guildId: string | null;
  channelId: string;
  commandId: string;
  commandName: string;
  commandType: number;
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

/** An entry point launched by Discord (handler 2): recorded acknowledged, with its launch message. */
export interface Launch {
  activityInstanceId: string;
  messageId: string;
  /** The launch message as the API answers it. */
  message: JsonRecord;
}

/** What recording an invocation did: a new interaction, or the one a replayed nonce names. */
export type RecordResult = { recorded: true } | { recorded: false; interactionId: string };

/** What failing an interaction found: it failed now, it had its outcome already, or its deadline is still ahead. */
export type FailResult = { kind: 'failed' } | { kind: 'settled' } | { kind: 'pending'; remainingMs: number };

/** The row fields an interaction's events are addressed with. */
interface AudienceRow {
  id: string;
  application_id: string;
  user_id: string;
  session_id: string | null;
  nonce: string | null;
  guild_id: string | null;
  channel_id: string;
}

const AUDIENCE_COLUMNS = `id::text, application_id::text, user_id::text, session_id, nonce,
  guild_id::text, channel_id::text`;

/** The events' audience fields (the invoking user, their session, the app, the place). */
function audienceOf(row: AudienceRow) {
  return {
    interaction_id: row.id,
    application_id: row.application_id,
    user_id: row.user_id,
    session_id: row.session_id,
    nonce: row.nonce,
    guild_id: row.guild_id,
    channel_id: row.channel_id,
  };
}

/**
 * Interactions in PostgreSQL, plain SQL on `pg`: recording an invocation (row and events
 * in one transaction, a replayed nonce finding the first), failing the pending ones (one
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
    const result = await this.pool.query<{ id: string }>(
      'SELECT id::text FROM interaction WHERE user_id = $1 AND nonce = $2 AND expires_at > now()',
      [userId, nonce],
    );
    return result.rows[0]?.id;
  }

  /**
   * Records an invocation and its `interaction.created` event (with `launch`: acknowledged
   * at once, with the launch message and its events) in one transaction. A nonce the user
   * sent within the token's lifetime records nothing and names the first interaction; an
   * older interaction gives its nonce up.
   */
  async record(interaction: NewInteraction, launch?: Launch): Promise<RecordResult> {
    return withTransaction(this.pool, async (db) => {
      if (interaction.nonce !== null) {
        await db.query(
          'UPDATE interaction SET nonce = NULL WHERE user_id = $1 AND nonce = $2 AND expires_at <= now()',
          [interaction.userId, interaction.nonce],
        );
      }
      const inserted = await insertInteraction(db, interaction, this.windows, launch);
      if (!inserted) {
        const first = await db.query<{ id: string }>(
          'SELECT id::text FROM interaction WHERE user_id = $1 AND nonce = $2',
          [interaction.userId, interaction.nonce],
        );
        return { recorded: false, interactionId: first.rows[0]?.id as string };
      }
      const audience = audienceOf({
        id: interaction.id,
        application_id: interaction.applicationId,
        user_id: interaction.userId,
        session_id: interaction.sessionId,
        nonce: interaction.nonce,
        guild_id: interaction.guildId,
        channel_id: interaction.channelId,
      });
      const events: OutboxRow[] = [
        createEvent('interactions.interaction.created', {
          ...audience,
          type: interaction.type,
          bot_payload: interaction.botPayload,
        }),
      ];
      if (launch) {
        await db.query(
          `INSERT INTO message (id, interaction_id, application_id, channel_id, guild_id, is_original, flags, body)
           VALUES ($1, $2, $3, $4, $5, true, 0, $6)`,
          [
            launch.messageId,
            interaction.id,
            interaction.applicationId,
            interaction.channelId,
            interaction.guildId,
            JSON.stringify(launch.message),
          ],
        );
        // The order of a callback's events: the user's INTERACTION_SUCCESS, then the message.
        events.push(
          createEvent('interactions.interaction.succeeded', audience),
          createEvent('interactions.message.created', {
            application_id: interaction.applicationId,
            channel_id: interaction.channelId,
            guild_id: interaction.guildId,
            ephemeral_user_id: null,
            recipient_ids: interaction.recipientIds,
            message: launch.message,
          }),
        );
      }
      await writeEvents(db, events);
      if (launch) await notifyOutcome(db, interaction.id);
      return { recorded: true };
    });
  }

  /**
   * Fails a pending interaction with `reasonCode` (its event and the outcome notification
   * in the same transaction). With `onlyIfOverdue` (the deadline's timer), only once its
   * deadline has passed by the database's clock; the answer then says how long is left.
   */
  async failIfPending(id: string, reasonCode: number, onlyIfOverdue: boolean): Promise<FailResult> {
    return withTransaction(this.pool, async (db) => {
      const failed = await db.query<AudienceRow>(
        `UPDATE interaction SET state = 'failed', reason_code = $2
         WHERE id = $1 AND state = 'pending' ${onlyIfOverdue ? 'AND deadline_at <= now()' : ''}
         RETURNING ${AUDIENCE_COLUMNS}`,
        [id, reasonCode],
      );
      if (failed.rows.length > 0) {
        await announceFailures(db, failed.rows, reasonCode);
        return { kind: 'failed' };
      }
      const current = await db.query<{ state: string; remaining_ms: number }>(
        `SELECT state, GREATEST(0, CEIL(EXTRACT(EPOCH FROM deadline_at - now()) * 1000))::int AS remaining_ms
         FROM interaction WHERE id = $1`,
        [id],
      );
      const row = current.rows[0];
      return row?.state === 'pending'
        ? { kind: 'pending', remainingMs: row.remaining_ms }
        : { kind: 'settled' };
    });
  }

  /**
   * Fails up to `limit` pending interactions whose deadline has passed (reason 2 TIMEOUT):
   * those whose timer a restart or another replica's crash lost. Rows another replica is
   * failing at the same time are skipped. Answers how many failed.
   */
  async failOverdue(limit: number): Promise<number> {
    return withTransaction(this.pool, async (db) => {
      const failed = await db.query<AudienceRow>(
        `UPDATE interaction SET state = 'failed', reason_code = $2
         WHERE id IN (
           SELECT id FROM interaction WHERE state = 'pending' AND deadline_at <= now()
           ORDER BY deadline_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING ${AUDIENCE_COLUMNS}`,
        [limit, TIMEOUT_REASON],
      );
      await announceFailures(db, failed.rows, TIMEOUT_REASON);
      return failed.rows.length;
    });
  }

  /** The interaction with its outcome, or undefined while it is pending (or unknown). */
  async settled(id: string): Promise<SettledInteraction | undefined> {
    const result = await this.pool.query<{
      state: string;
      reason_code: number | null;
      response: JsonRecord | null;
      payload: JsonRecord;
      messages: JsonRecord[];
    }>(
      `SELECT i.state, i.reason_code, i.response, i.payload,
         COALESCE((SELECT json_agg(m.body ORDER BY m.id) FROM message m
                   WHERE m.interaction_id = i.id AND m.deleted_at IS NULL), '[]') AS messages
       FROM interaction i WHERE i.id = $1`,
      [id],
    );
    const row = result.rows[0];
    if (!row || (row.state !== 'acknowledged' && row.state !== 'failed')) return undefined;
    return {
      state: row.state,
      reasonCode: row.reason_code,
      payload: row.payload,
      response: row.response,
      messages: row.messages,
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

/** INTERACTION_FAILURE reason 2: no initial response within the deadline. */
const TIMEOUT_REASON = 2;
/** The callback type an entry point's launch is recorded with: LAUNCH_ACTIVITY. */
const LAUNCH_ACTIVITY = 12;

/** Inserts the interaction row unless its nonce is taken; whether it was inserted. */
async function insertInteraction(
  db: PoolClient,
  interaction: NewInteraction,
  windows: { deadlineMs: number; tokenTtlSeconds: number },
  launch: Launch | undefined,
): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO interaction (id, application_id, type, user_id, guild_id, channel_id, command_id,
       command_name, command_type, session_id, nonce, token_hash, delivery, state, response_type,
       response, user_install_only, recipient_ids, payload, original_message_id, activity_instance_id,
       deadline_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::bigint[], $19,
       $20, $21, now() + $22 * interval '1 millisecond', now() + $23 * interval '1 second')
     ON CONFLICT (user_id, nonce) DO NOTHING
     RETURNING id`,
    [
      interaction.id,
      interaction.applicationId,
      interaction.type,
      interaction.userId,
      interaction.guildId,
      interaction.channelId,
      interaction.commandId,
      interaction.commandName,
      interaction.commandType,
      interaction.sessionId,
      interaction.nonce,
      interaction.tokenHash,
      interaction.delivery,
      launch ? 'acknowledged' : 'pending',
      launch ? LAUNCH_ACTIVITY : null,
      launch ? JSON.stringify({ type: LAUNCH_ACTIVITY }) : null,
      interaction.userInstallOnly,
      interaction.recipientIds,
      JSON.stringify(interaction.payload),
      launch?.messageId ?? null,
      launch?.activityInstanceId ?? null,
      windows.deadlineMs,
      windows.tokenTtlSeconds,
    ],
  );
  return (inserted.rowCount ?? 0) > 0;
}

/** The `interaction.failed` events of failed rows, and their outcome notifications. */
async function announceFailures(db: PoolClient, rows: AudienceRow[], reasonCode: number): Promise<void> {
  await writeEvents(
    db,
    rows.map((row) =>
      createEvent('interactions.interaction.failed', { ...audienceOf(row), reason_code: reasonCode }),
    ),
  );
  for (const row of rows) await notifyOutcome(db, row.id);
}
