import { randomUUID } from 'node:crypto';
import type { TraceCarrier } from './trace-context';

/** What every event carries: a stable id for deduplication, its type and when it happened. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  occurred_at: string;
  data: T;
}

/** One row to insert into a service's outbox in the transaction that makes the change. */
export interface OutboxRow {
  id: string;
  subject: string;
  payload: EventEnvelope;
  /** The trace of the change (its `trace_context` column), or null when none is recorded. */
  traceContext: TraceCarrier | null;
}

/**
 * Builds the outbox row for an event of `service`: subject `acs.<service>.<type>`, the
 * envelope as payload, the envelope id as row id (and later as `Nats-Msg-Id`). Services
 * use `createEvent`, which checks the event against the catalog; this is its untyped core.
 */
export function createOutboxRow<T>(
  service: string,
  type: string,
  data: T,
  now = new Date(),
  traceContext: TraceCarrier | null = null,
): OutboxRow {
  const id = randomUUID();
  return {
    id,
    subject: `acs.${service}.${type}`,
    payload: { id, type, occurred_at: now.toISOString(), data },
    traceContext,
  };
}
