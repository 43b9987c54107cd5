import { randomUUID } from 'node:crypto';

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
}

/**
 * Builds the outbox row for an event of `service`: subject `acs.<service>.<type>`, the
 * envelope as payload, the envelope id as row id (and later as `Nats-Msg-Id`).
 */
export function createOutboxRow<T>(service: string, type: string, data: T, now = new Date()): OutboxRow {
  const id = randomUUID();
  return {
    id,
    subject: `acs.${service}.${type}`,
    payload: { id, type, occurred_at: now.toISOString(), data },
  };
}
