import type { JsonRecord } from '../invocation/invocation-facts';
import type { NewTrace } from './plan-trace';

/** A trace row as the store reads it: what the recording wrote, and what happened since. */
export interface TraceRow extends NewTrace {
  refusals: JsonRecord[];
  steps: JsonRecord[];
  createdAt: Date;
  deliveredAt: Date | null;
  answeredAt: Date | null;
  /** The interaction's windows as they stand (false once its row is gone). */
  initialWindowOpen: boolean;
  tokenValid: boolean;
}

/**
 * A timeline entry as the admin API answers it: who invoked what where, the payload the app
 * got, how it was delivered, its outcome (`state` pending / answered / failed, with the
 * callback or the reason), refused callbacks, follow-ups, edits, and the timings in ms
 * from its receipt.
 */
export function renderTimelineEntry(row: TraceRow): JsonRecord {
  const outcome = row.outcome;
  const state = outcome === null ? 'pending' : outcome.kind === 'failed' ? 'failed' : 'answered';
  const since = (at: Date | null) =>
    at === null ? null : Math.max(0, at.getTime() - row.createdAt.getTime());
  return {
    id: row.interactionId,
    application_id: row.applicationId,
    type: row.type,
    data: { name: row.commandName, ...(row.customId === null ? {} : { custom_id: row.customId }) },
    user_id: row.userId,
    guild_id: row.guildId,
    channel_id: row.channelId,
    created_at: row.createdAt.toISOString(),
    payload: row.payload,
    delivery: row.delivery,
    state,
    outcome,
    reason: outcome?.kind === 'failed' ? (outcome.reason ?? null) : null,
    refusals: row.refusals,
    followups: row.steps.filter((step) => step.kind === 'followup'),
    edits: row.steps.filter((step) => step.kind !== 'followup'),
    windows: {
      initial: row.initialWindowOpen ? 'open' : 'closed',
      token: row.tokenValid ? 'valid' : 'expired',
    },
    timings: {
      received_at: row.createdAt.toISOString(),
      delivered_ms: since(row.deliveredAt),
      answered_ms: since(row.answeredAt),
    },
  };
}
