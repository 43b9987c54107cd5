import type { Pool } from 'pg';
import { withTransaction } from '@acs/service-kit';

/** A webhook delivery to record with its event. */
export interface NewDelivery {
  eventId: string;
  applicationId: string;
  eventType: string;
  url: string;
  body: string;
}

/** A delivery a replica has leased to attempt now. */
export interface ClaimedDelivery {
  eventId: string;
  applicationId: string;
  eventType: string;
  url: string;
  body: string;
  attempts: number;
  firstAttemptAt: Date | null;
}

/** Rows deleted per statement while pruning, so that no statement holds locks for long. */
const PRUNE_BATCH_SIZE = 5000;

/**
 * The dispatcher's records, in raw SQL on `pg` (the hot path: one statement per batch of
 * events, one per batch of claims): events seen, webhook deliveries and their retries,
 * and the health of each application's endpoint.
 */
export class DeliveryStore {
  constructor(private readonly pool: Pool) {}

  /** The ids among `ids` already handled. */
  async seen(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT id FROM dispatcher.processed_event WHERE id = ANY($1::text[])',
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Records events as handled together with the webhook deliveries they make, in one
   * transaction: after it commits the events can be acknowledged. Deliveries to a
   * disabled endpoint are recorded as `skipped`.
   */
  async record(events: Array<{ id: string; subject: string }>, deliveries: NewDelivery[]): Promise<void> {
    if (events.length === 0) return;
    return withTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO dispatcher.processed_event (id, subject)
       SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`,
        [events.map((e) => e.id), events.map((e) => e.subject)],
      );
      if (deliveries.length > 0) {
        await client.query(
          `INSERT INTO dispatcher.webhook_delivery (event_id, application_id, event_type, url, body, status)
         SELECT d.event_id, d.application_id, d.event_type, d.url, d.body,
                CASE WHEN e.disabled_at IS NULL THEN 'pending' ELSE 'skipped' END
           FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[])
                AS d(event_id, application_id, event_type, url, body)
           LEFT JOIN dispatcher.webhook_endpoint e ON e.application_id = d.application_id
         ON CONFLICT DO NOTHING`,
          [
            deliveries.map((d) => d.eventId),
            deliveries.map((d) => d.applicationId),
            deliveries.map((d) => d.eventType),
            deliveries.map((d) => d.url),
            deliveries.map((d) => d.body),
          ],
        );
      }
    });
  }

  /**
   * Leases due deliveries for `leaseMs`: at most `perApplication` per application, none
   * of the applications in `busy`, oldest first. A lease that runs out (the replica
   * died) makes the delivery due again.
   */
  async claimDue(options: {
    limit: number;
    perApplication: number;
    busy: string[];
    leaseMs: number;
  }): Promise<ClaimedDelivery[]> {
    const { rows } = await this.pool.query<{
      event_id: string;
      application_id: string;
      event_type: string;
      url: string;
      body: string;
      attempts: number;
      first_attempt_at: Date | null;
    }>(
      `WITH candidates AS (
         SELECT event_id, application_id FROM (
           SELECT event_id, application_id, next_attempt_at,
                  row_number() OVER (PARTITION BY application_id ORDER BY next_attempt_at) AS n
             FROM dispatcher.webhook_delivery
            WHERE status = 'pending' AND next_attempt_at <= now()
              AND (leased_until IS NULL OR leased_until < now())
              AND NOT (application_id = ANY($3::bigint[]))
         ) ranked
         WHERE n <= $2 ORDER BY next_attempt_at LIMIT $1)
       UPDATE dispatcher.webhook_delivery d
          SET leased_until = now() + make_interval(secs => $4::double precision / 1000)
         FROM candidates c
        WHERE d.event_id = c.event_id AND d.application_id = c.application_id
          AND d.status = 'pending' AND (d.leased_until IS NULL OR d.leased_until < now())
       RETURNING d.event_id, d.application_id::text, d.event_type, d.url, d.body, d.attempts, d.first_attempt_at`,
      [options.limit, options.perApplication, options.busy, options.leaseMs],
    );
    return rows.map((r) => ({
      eventId: r.event_id,
      applicationId: r.application_id,
      eventType: r.event_type,
      url: r.url,
      body: r.body,
      attempts: r.attempts,
      firstAttemptAt: r.first_attempt_at,
    }));
  }

  /**
   * When the next pending delivery falls due, or undefined when none waits. Applications
   * in `busy` are left out: their next claim follows a free slot, not the clock (their
   * due deliveries would otherwise make the claim loop spin).
   */
  async nextDueAt(busy: string[] = []): Promise<Date | undefined> {
    const { rows } = await this.pool.query<{ at: Date | null }>(
      `SELECT min(greatest(next_attempt_at, coalesce(leased_until, next_attempt_at))) AS at
         FROM dispatcher.webhook_delivery
        WHERE status = 'pending' AND NOT (application_id = ANY($1::bigint[]))`,
      [busy],
    );
    return rows[0]?.at ?? undefined;
  }

  /** The attempt succeeded: delivered, and the endpoint's failure streak ends. */
  async markDelivered(delivery: ClaimedDelivery, attemptedAt: Date): Promise<void> {
    await this.pool.query(
      `WITH done AS (
         UPDATE dispatcher.webhook_delivery
            SET status = 'delivered', attempts = attempts + 1, leased_until = NULL, finished_at = now(),
                first_attempt_at = coalesce(first_attempt_at, $3), last_error = NULL
          WHERE event_id = $1 AND application_id = $2)
       UPDATE dispatcher.webhook_endpoint SET consecutive_failures = 0, updated_at = now()
        WHERE application_id = $2 AND consecutive_failures > 0`,
      [delivery.eventId, delivery.applicationId, attemptedAt],
    );
  }

  /** The attempt failed and another will follow at `nextAt`. */
  async scheduleRetry(
    delivery: ClaimedDelivery,
    attemptedAt: Date,
    nextAt: Date,
    error: string,
  ): Promise<void> {
    await this.pool.query(
      `UPDATE dispatcher.webhook_delivery
          SET attempts = attempts + 1, next_attempt_at = $3, leased_until = NULL,
              first_attempt_at = coalesce(first_attempt_at, $4), last_error = $5
        WHERE event_id = $1 AND application_id = $2`,
      [delivery.eventId, delivery.applicationId, nextAt, attemptedAt, error],
    );
  }

  /**
   * The retry budget is spent: the delivery failed, and the endpoint's failure streak
   * grows; at `disableAfter` its webhooks are disabled. Returns whether this disabled it.
   */
  async markFailed(
    delivery: ClaimedDelivery,
    attemptedAt: Date,
    error: string,
    disableAfter: number,
  ): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      await client.query(
        `UPDATE dispatcher.webhook_delivery
          SET status = 'failed', attempts = attempts + 1, leased_until = NULL, finished_at = now(),
              first_attempt_at = coalesce(first_attempt_at, $3), last_error = $4
        WHERE event_id = $1 AND application_id = $2`,
        [delivery.eventId, delivery.applicationId, attemptedAt, error],
      );
      const { rows } = await client.query<{ disabled: boolean }>(
        `INSERT INTO dispatcher.webhook_endpoint (application_id, consecutive_failures) VALUES ($1, 1)
       ON CONFLICT (application_id) DO UPDATE
         SET consecutive_failures = webhook_endpoint.consecutive_failures + 1, updated_at = now(),
             disabled_at = CASE WHEN webhook_endpoint.disabled_at IS NULL
                                 AND webhook_endpoint.consecutive_failures + 1 >= $2 THEN now()
                                ELSE webhook_endpoint.disabled_at END
       RETURNING (disabled_at IS NOT NULL AND consecutive_failures = $2) AS disabled`,
        [delivery.applicationId, disableAfter],
      );
      if (rows[0]?.disabled) {
        // Nothing more goes to a disabled endpoint, including what is already queued.
        await client.query(
          `UPDATE dispatcher.webhook_delivery SET status = 'skipped', finished_at = now()
          WHERE application_id = $1 AND status = 'pending'`,
          [delivery.applicationId],
        );
      }
      return rows[0]?.disabled ?? false;
    });
  }

  /** The delivery cannot be made (no URL or key any more): finished without sending. */
  async markSkipped(delivery: ClaimedDelivery, reason: string): Promise<void> {
    await this.pool.query(
      `UPDATE dispatcher.webhook_delivery SET status = 'skipped', leased_until = NULL, finished_at = now(), last_error = $3
        WHERE event_id = $1 AND application_id = $2`,
      [delivery.eventId, delivery.applicationId, reason],
    );
  }

  /** Whether the application's webhooks are disabled. */
  async isDisabled(applicationId: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      'SELECT 1 FROM dispatcher.webhook_endpoint WHERE application_id = $1 AND disabled_at IS NOT NULL',
      [applicationId],
    );
    return rows.length > 0;
  }

  /**
   * Deletes records older than `olderThanMs`, in batches until fewer than a batch are
   * left or `options.signal` aborts; returns how many rows went. A handled event id can
   * go once the stream no longer holds the event (the stream keeps events as long, and an
   * event is handled after it was stored), so no redelivery can need it. Finished
   * deliveries go by when they finished; pending ones stay, however old.
   */
  async prune(
    olderThanMs: number,
    options: { signal?: AbortSignal; batchSize?: number } = {},
  ): Promise<number> {
    const { signal, batchSize = PRUNE_BATCH_SIZE } = options;
    const events = await this.deleteInBatches(
      `DELETE FROM dispatcher.processed_event WHERE id IN (
         SELECT id FROM dispatcher.processed_event
          WHERE processed_at < now() - make_interval(secs => $1::double precision / 1000)
          LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      olderThanMs,
      batchSize,
      signal,
    );
    const deliveries = await this.deleteInBatches(
      `DELETE FROM dispatcher.webhook_delivery WHERE (event_id, application_id) IN (
         SELECT event_id, application_id FROM dispatcher.webhook_delivery
          WHERE finished_at < now() - make_interval(secs => $1::double precision / 1000)
            AND status <> 'pending'
          LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      olderThanMs,
      batchSize,
      signal,
    );
    return events + deliveries;
  }

  /** The endpoint was verified again: enabled, with a clean record. */
  async enable(applicationId: string): Promise<void> {
    await this.pool.query(
      `UPDATE dispatcher.webhook_endpoint SET disabled_at = NULL, consecutive_failures = 0, updated_at = now()
        WHERE application_id = $1`,
      [applicationId],
    );
  }

  /**
   * Runs a `DELETE … LIMIT $2` until it deletes fewer than a batch. Its SKIP LOCKED lets
   * replicas that prune at once split the rows instead of waiting on each other.
   */
  private async deleteInBatches(
    sql: string,
    olderThanMs: number,
    batchSize: number,
    signal: AbortSignal | undefined,
  ): Promise<number> {
    let deleted = 0;
    while (!signal?.aborted) {
      const { rowCount } = await this.pool.query(sql, [olderThanMs, batchSize]);
      deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < batchSize) break;
    }
    return deleted;
  }
}
