import { SpanKind, trace } from '@opentelemetry/api';
import { headers, type JetStreamClient, type NatsConnection } from 'nats';
import type { Pool, PoolClient } from 'pg';
import { ensureEventStream } from './ensure-event-stream';
import { eventTracer } from './event-span';
import {
  DEFAULT_EVENT_STREAM,
  publishedSubject,
  subjectWithoutPrefix,
  type EventStreamConfig,
} from './event-stream';
import { pipelineInstruments } from './pipeline-metrics';
import { outboxChannel } from './outbox-sql';
import { retry } from './retry';
import { schedulePruning, type ScheduledPruning } from './schedule-pruning';
import { captureTraceContext, contextOfCarrier, readTraceCarrier, TRACE_HEADERS } from './trace-context';
import { WakeSignal } from './wake-signal';

/** What the relay logs through; pino's logger fits. */
export interface RelayLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Options of an outbox relay. */
export interface OutboxRelayOptions {
  pool: Pool;
  /** The service's PostgreSQL schema, holding its `outbox` table. */
  schema: string;
  nats: NatsConnection;
  logger: RelayLogger;
  /** Rows published per transaction. */
  batchSize?: number;
  /** Fallback poll interval when no NOTIFY arrives. */
  pollIntervalMs?: number;
  /** Stream and subject prefix (default `ACS_EVENTS`, `acs`). */
  events?: EventStreamConfig;
  /** Published rows older than this are deleted; unset: they are kept forever. */
  retentionMs?: number;
  /** How often published rows are pruned (default hourly; the first run comes soon after start). */
  pruneIntervalMs?: number;
  /** Rows deleted per statement while pruning, so that no statement holds locks for long. */
  pruneBatchSize?: number;
}

/**
 * Publishes a service's outbox rows to JetStream, in order of creation, and marks them
 * published. Row id = `Nats-Msg-Id`: a crash between publish and mark republishes the
 * row, and the stream's duplicate window drops the repeat. While NATS is down the rows
 * wait (writes keep succeeding) and the relay retries with the one backoff policy.
 * Each row's trace context (its `trace_context` column) becomes the parent of a publish
 * span, whose context travels in the message's `traceparent`/`tracestate` headers.
 * Several replicas may run: `FOR UPDATE SKIP LOCKED` gives each row to one of them.
 * With `retentionMs`, published rows are deleted once older than that.
 */
export class OutboxRelay {
  private readonly js: JetStreamClient;
  private readonly table: string;
  private readonly prefix: string;
  private readonly batchSize: number;
  private running = false;
  /** Rung by NOTIFY: rows may be waiting. */
  private readonly wakeUp = new WakeSignal();
  /** Aborted by stop() only: ends a backoff, which new rows must not cut short. */
  private stopping = new AbortController();
  /** The LISTENing connection, and how to let it go (once: it may also fail meanwhile). */
  private listener: { client: PoolClient; release(): void } | undefined;
  private loop: Promise<void> | undefined;
  private pruning: ScheduledPruning | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.js = options.nats.jetstream();
    this.table = `"${options.schema}"."outbox"`;
    this.prefix = (options.events ?? DEFAULT_EVENT_STREAM).subjectPrefix;
    this.batchSize = options.batchSize ?? 100;
  }

  /** Makes sure the stream exists (idempotent). */
  static async ensureStream(
    nats: NatsConnection,
    events: EventStreamConfig = DEFAULT_EVENT_STREAM,
  ): Promise<void> {
    await ensureEventStream(nats, events);
  }

  /** Starts relaying in the background. */
  async start(): Promise<void> {
    this.running = true;
    this.stopping = new AbortController();
    await this.listen();
    this.loop = this.run();
    if (this.options.retentionMs !== undefined) {
      this.pruning = schedulePruning({
        prune: (signal) => this.prune(signal),
        logger: this.options.logger,
        what: `${this.options.schema} outbox rows`,
        intervalMs: this.options.pruneIntervalMs,
      });
    }
  }

  /** Stops after the batch in progress. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp.wake();
    this.stopping.abort();
    await Promise.all([this.loop, this.pruning?.stop()]);
    this.pruning = undefined;
    this.listener?.release();
    this.listener = undefined;
  }

  /** Publishes one batch; returns how many rows were published. Exposed for tests. */
  async relayBatch(): Promise<number> {
    const client = await this.options.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{
        id: string;
        subject: string;
        payload: string;
        trace_context: unknown;
        age_ms: number;
      }>(
        // The row's age on the database's clock (created_at is written as now() in the
        // session's time zone, localtimestamp is the same clock in the same terms).
        `SELECT id, subject, payload::text AS payload, trace_context,
                (EXTRACT(EPOCH FROM localtimestamp - created_at) * 1000)::float8 AS age_ms
           FROM ${this.table}
          WHERE published_at IS NULL ORDER BY seq
          LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      // Sent back to back on one connection, so the stream stores them in this order;
      // msgID becomes the Nats-Msg-Id header, the stream's deduplication key.
      const selectedAt = performance.now();
      await Promise.all(
        rows.map((row) => this.publish(publishedSubject(row.subject, this.prefix), row, selectedAt)),
      );
      if (rows.length > 0) {
        await client.query(`UPDATE ${this.table} SET published_at = now() WHERE id = ANY($1::text[])`, [
          rows.map((r) => r.id),
        ]);
      }
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Deletes published rows older than the retention, in batches until fewer than a batch
   * are left or `signal` aborts; returns how many went. Unpublished rows are never
   * touched, however old. Exposed for tests.
   */
  async prune(signal?: AbortSignal): Promise<number> {
    const retentionMs = this.options.retentionMs;
    if (retentionMs === undefined) return 0;
    const batchSize = this.options.pruneBatchSize ?? 5000;
    let deleted = 0;
    while (!signal?.aborted) {
      // published_at is a timestamp without time zone, written as now() in the session's
      // time zone: localtimestamp is the same clock in the same terms, and (published_at,
      // seq) is indexed. SKIP LOCKED: replicas pruning at once split the rows.
      const { rowCount } = await this.options.pool.query(
        `DELETE FROM ${this.table} WHERE id IN (
           SELECT id FROM ${this.table}
            WHERE published_at < localtimestamp - make_interval(secs => $1::double precision / 1000)
            LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [retentionMs, batchSize],
      );
      deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < batchSize) break;
    }
    return deleted;
  }

  /**
   * Publishes one row in a span that continues the trace of the change that wrote it; the
   * span's context (or, with no tracing installed here, the stored one) goes in the headers.
   */
  private async publish(
    subject: string,
    row: { id: string; subject: string; payload: string; trace_context: unknown; age_ms: number },
    selectedAt: number,
  ): Promise<void> {
    const stored = readTraceCarrier(row.trace_context);
    const span = eventTracer.startSpan(
      `send ${subject}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'send',
          'messaging.destination.name': subject,
          'messaging.message.id': row.id,
        },
      },
      contextOfCarrier(stored),
    );
    const carrier = captureTraceContext(trace.setSpan(contextOfCarrier(stored), span)) ?? stored;
    const messageHeaders = headers();
    for (const header of TRACE_HEADERS) {
      const value = carrier?.[header];
      if (value) messageHeaders.set(header, value);
    }
    try {
      await this.js.publish(subject, Buffer.from(row.payload), { msgID: row.id, headers: messageHeaders });
      // Lag: the row's age when read, plus the time since, to NATS's acknowledgement.
      pipelineInstruments().relayLag.record(Math.max(0, row.age_ms + performance.now() - selectedAt) / 1000, {
        'messaging.system': 'nats',
        'acs.event.name': subjectWithoutPrefix(row.subject, 'acs'),
      });
    } finally {
      span.end();
    }
  }

  /** Holds a connection that LISTENs for the services' NOTIFY; re-established when lost. */
  private async listen(): Promise<void> {
    const client = await this.options.pool.connect();
    let released = false;
    // Destroyed, never returned to the pool: a pooled connection would go on LISTENing. A
    // connection can fail more than once (an error, then its end), and after stop() let it
    // go: pg-pool throws on a second release.
    const listener = {
      client,
      release: () => {
        if (released) return;
        released = true;
        client.release(true);
      },
    };
    client.on('notification', () => this.wakeUp.wake());
    client.on('error', (error) => {
      this.options.logger.warn({ err: error }, 'outbox listener connection lost');
      if (this.listener === listener) this.listener = undefined;
      listener.release();
    });
    try {
      await client.query(`LISTEN "${outboxChannel(this.options.schema)}"`);
    } catch (error) {
      listener.release();
      throw error;
    }
    this.listener = listener;
  }

  private async run(): Promise<void> {
    const poll = this.options.pollIntervalMs ?? 1000;
    while (this.running) {
      const published = await retry(() => this.relayNext(), {
        signal: this.stopping.signal,
        onRetry: (error, { delayMs }) =>
          this.options.logger.warn({ err: error, retryInMs: delayMs }, 'outbox relay failed; retrying'),
      }).catch(() => 0); // stopped during a backoff
      // Less than a full batch: the outbox held no more when the batch looked (a row
      // committed since rang the wake-up, cleared before the batch, so the wait returns at
      // once). Looking again straight away would cost an empty transaction per wake-up.
      if (published < this.batchSize && this.running) await this.wakeUp.wait(poll);
    }
  }

  /** Publishes the next batch, listening again first if the listener was lost. */
  private async relayNext(): Promise<number> {
    // Until the listener is back, the poll interval bounds the delay.
    if (!this.listener) await this.listen();
    // A NOTIFY that arrives while the batch runs may be for a row it did not see.
    this.wakeUp.clear();
    return this.relayBatch();
  }
}
