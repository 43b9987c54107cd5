import type { Pool, PoolClient } from 'pg';
import type { StatementParameters } from '@acs/service-kit';
import {
  TRACE_REFUSALS_KEPT,
  TRACE_STEPS_KEPT,
  TRACES_KEPT_PER_APPLICATION,
  type JsonRecordLike,
  type NewTrace,
  type TimelinePage,
  type TraceRow,
} from '../domain/timeline';
import { OUTCOME_CHANNEL } from './write-events';

/**
 * The INSERT of a new interaction's trace, and the pruning of its application's oldest
 * (all but the latest TRACES_KEPT_PER_APPLICATION), as data-modifying CTEs of the
 * recording's statement, once for each row of `guard`: the trace exists as soon as the
 * interaction does, so that no answer can come before it.
 */
export function insertTraceSql(p: StatementParameters, trace: NewTrace, guard: string): string {
  const app = p.add(trace.applicationId);
  return `traced AS (
      INSERT INTO interaction_trace (interaction_id, application_id, type, command_name, custom_id,
        user_id, guild_id, channel_id, payload, delivery, outcome, delivered_at, answered_at)
      SELECT ${p.add(trace.interactionId)}::bigint, ${app}::bigint, ${p.add(trace.type)}::smallint,
        ${p.add(trace.commandName)}::text, ${p.add(trace.customId)}::text, ${p.add(trace.userId)}::bigint,
        ${p.add(trace.guildId)}::bigint, ${p.add(trace.channelId)}::bigint,
        ${p.add(JSON.stringify(trace.payload))}::jsonb, ${p.add(JSON.stringify(trace.delivery))}::jsonb,
        ${p.add(trace.outcome === null ? null : JSON.stringify(trace.outcome))}::jsonb,
        CASE WHEN ${p.add(trace.delivery.kind)}::text = 'endpoint' THEN NULL ELSE now() END,
        CASE WHEN ${p.add(trace.outcome === null)}::boolean THEN NULL ELSE now() END
      FROM ${guard}),
    pruned AS (
      DELETE FROM interaction_trace
       WHERE application_id = ${app}::bigint AND EXISTS (SELECT 1 FROM ${guard})
         AND interaction_id <= (SELECT interaction_id FROM interaction_trace
                                 WHERE application_id = ${app}::bigint
                                 ORDER BY interaction_id DESC
                                 OFFSET ${p.add(TRACES_KEPT_PER_APPLICATION - 1)}::int LIMIT 1))`;
}

/** The UPDATE that sets the outcome of an acknowledged interaction's trace, once for each row of `guard`. */
export function answerTraceSql(
  p: StatementParameters,
  interactionId: string,
  outcome: unknown,
  guard: string,
): string {
  return `answered_trace AS (
      UPDATE interaction_trace SET outcome = ${p.add(JSON.stringify(outcome))}::jsonb, answered_at = now()
       WHERE interaction_id = ${p.add(interactionId)}::bigint AND EXISTS (SELECT 1 FROM ${guard}))`;
}

/** Sets the outcomes of failed interactions' traces, in the failing transaction. */
export async function failTraces(
  db: Pick<PoolClient, 'query'>,
  failed: readonly { id: string; outcome: JsonRecordLike }[],
): Promise<void> {
  if (failed.length === 0) return;
  await db.query(
    `UPDATE interaction_trace t SET outcome = v.outcome, answered_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, outcome jsonb)
      WHERE t.interaction_id = v.id::bigint`,
    [JSON.stringify(failed)],
  );
}

/** A trace row as selected. */
interface TraceDbRow {
  interaction_id: string;
  application_id: string;
  type: number;
  command_name: string;
  custom_id: string | null;
  user_id: string;
  guild_id: string | null;
  channel_id: string;
  payload: unknown;
  delivery: JsonRecordLike;
  outcome: JsonRecordLike | null;
  refusals: JsonRecordLike[];
  steps: JsonRecordLike[];
  created_at: Date;
  delivered_at: Date | null;
  answered_at: Date | null;
  initial_open: boolean | null;
  token_valid: boolean | null;
}

const TRACE_COLUMNS = `t.interaction_id::text, t.application_id::text, t.type, t.command_name, t.custom_id,
  t.user_id::text, t.guild_id::text, t.channel_id::text, t.payload, t.delivery, t.outcome, t.refusals,
  t.steps, t.created_at, t.delivered_at, t.answered_at,
  (i.state = 'pending' AND i.deadline_at > now()) AS initial_open, i.expires_at > now() AS token_valid`;

function toTraceRow(row: TraceDbRow): TraceRow {
  return {
    interactionId: row.interaction_id,
    applicationId: row.application_id,
    type: row.type,
    commandName: row.command_name,
    customId: row.custom_id,
    userId: row.user_id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    payload: row.payload,
    delivery: row.delivery,
    outcome: row.outcome,
    refusals: row.refusals,
    steps: row.steps,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    answeredAt: row.answered_at,
    initialWindowOpen: row.initial_open === true,
    tokenValid: row.token_valid === true,
  };
}

/**
 * The interaction timeline in PostgreSQL (`interaction_trace`): what the admin API reads,
 * and the notes that are not part of a deciding statement (the endpoint's delivery, a
 * refused callback, a follow-up or an edit). A note about an interaction whose trace was
 * pruned changes nothing.
 */
export class TraceStore {
  constructor(private readonly pool: Pool) {}

  /** A page of an application's timeline, newest first. */
  async list(applicationId: string, page: TimelinePage): Promise<TraceRow[]> {
    const { rows } = await this.pool.query<TraceDbRow>(
      `SELECT ${TRACE_COLUMNS} FROM interaction_trace t LEFT JOIN interaction i ON i.id = t.interaction_id
        WHERE t.application_id = $1 AND ($2::bigint IS NULL OR t.interaction_id < $2::bigint)
        ORDER BY t.interaction_id DESC LIMIT $3`,
      [applicationId, page.before, page.limit],
    );
    return rows.map(toTraceRow);
  }

  /** One interaction of an application's timeline, or undefined (unknown, pruned, or another application's). */
  async get(applicationId: string, interactionId: string): Promise<TraceRow | undefined> {
    const { rows } = await this.pool.query<TraceDbRow>(
      `SELECT ${TRACE_COLUMNS} FROM interaction_trace t LEFT JOIN interaction i ON i.id = t.interaction_id
        WHERE t.interaction_id = $1 AND t.application_id = $2`,
      [interactionId, applicationId],
    );
    return rows[0] && toTraceRow(rows[0]);
  }

  /** How the interaction went to its endpoint (`delivered_at`: when the POST was sent). */
  async noteDelivery(interactionId: string, delivery: JsonRecordLike, deliveredAt: Date): Promise<void> {
    await this.pool.query(
      'UPDATE interaction_trace SET delivery = $2::jsonb, delivered_at = $3 WHERE interaction_id = $1',
      [interactionId, JSON.stringify(delivery), deliveredAt],
    );
  }

  /** A callback refused before the outcome: the latest TRACE_REFUSALS_KEPT are kept. */
  async noteRefusal(interactionId: string, refusal: JsonRecordLike): Promise<void> {
    await this.pool.query(
      `UPDATE interaction_trace
          SET refusals = CASE WHEN jsonb_array_length(refusals) >= $3 THEN (refusals - 0) ELSE refusals END
                         || jsonb_build_array($2::jsonb)
        WHERE interaction_id = $1 AND outcome IS NULL`,
      [interactionId, JSON.stringify(refusal), TRACE_REFUSALS_KEPT],
    );
  }

  /**
   * A follow-up, an edit or a deletion through the token (the first TRACE_STEPS_KEPT are
   * kept), announced on the outcome channel: `?wait=final` waits for the original's filling.
   */
  async noteStep(interactionId: string, step: JsonRecordLike): Promise<void> {
    await this.pool.query(
      `WITH noted AS (
         UPDATE interaction_trace SET steps = steps || jsonb_build_array($2::jsonb)
          WHERE interaction_id = $1 AND jsonb_array_length(steps) < $3 RETURNING interaction_id)
       SELECT pg_notify($4, $1::text)`,
      [interactionId, JSON.stringify(step), TRACE_STEPS_KEPT, OUTCOME_CHANNEL],
    );
  }

  /** The steps of an interaction's trace (empty when it has none, or no trace). */
  async steps(interactionId: string): Promise<JsonRecordLike[]> {
    const { rows } = await this.pool.query<{ steps: JsonRecordLike[] }>(
      'SELECT steps FROM interaction_trace WHERE interaction_id = $1',
      [interactionId],
    );
    return rows[0]?.steps ?? [];
  }
}
