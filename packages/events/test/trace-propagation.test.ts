import { randomBytes } from 'node:crypto';
import { context, isSpanContextValid, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { createEvent, OutboxRelay, startEventConsumer, type OutboxRow, type ReceivedEvent } from '../src';
import { createOutboxTable } from './outbox-fixture';

const SCHEMA = 'tracetest';
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const suffix = randomBytes(4).toString('hex');
const events = { stream: `TRACE_T${suffix}`, subjectPrefix: `tr${suffix}` };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

let db: TestDatabase;
let pool: Pool;
let nats: NatsConnection;

beforeAll(async () => {
  // What the OpenTelemetry SDK installs in a service.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  db = await createTestDatabase([]);
  pool = new Pool({ connectionString: db.url });
  pool.on('error', () => undefined);
  await createOutboxTable(pool, SCHEMA);
  nats = await connect({ servers: db.natsUrl });
});

afterAll(async () => {
  propagation.disable();
  context.disable();
  await (await nats.jetstreamManager()).streams.delete(events.stream).catch(() => undefined);
  await nats?.drain();
  await pool?.end();
  await db?.drop();
});

async function insert(row: OutboxRow): Promise<void> {
  await pool.query(
    `INSERT INTO ${SCHEMA}.outbox (id, subject, payload, trace_context) VALUES ($1, $2, $3, $4)`,
    [row.id, row.subject, row.payload, row.traceContext],
  );
}

describe('trace context through outbox and NATS', () => {
  it('goes from the producing code to the outbox row, the message headers and the consumed event', async () => {
    const received: ReceivedEvent<'oauth.application.bot_token_reset'>[] = [];
    const consumer = startEventConsumer({
      nats,
      events,
      consumer: { name: 'traced' },
      names: ['oauth.application.bot_token_reset'],
      logger: quiet,
      handle: async (event) => {
        received.push(event);
      },
    });
    try {
      await consumer.ready;
      const producing = trace.wrapSpanContext({
        traceId: TRACE_ID,
        spanId: '00f067aa0ba902b7',
        traceFlags: TraceFlags.SAMPLED,
      });
      const traced = context.with(trace.setSpan(context.active(), producing), () =>
        createEvent('oauth.application.bot_token_reset', { application_id: '1' }),
      );
      const untraced = createEvent('oauth.application.bot_token_reset', { application_id: '2' });
      await insert(traced);
      await insert(untraced);
      const stored = await pool.query(`SELECT trace_context FROM ${SCHEMA}.outbox WHERE id = $1`, [
        traced.id,
      ]);
      expect(stored.rows[0].trace_context.traceparent).toContain(TRACE_ID);

      expect(await new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet, events }).relayBatch()).toBe(
        2,
      );
      const jsm = await nats.jetstreamManager();
      const first = await jsm.streams.getMessage(events.stream, { seq: 1 });
      expect(first.header.get('traceparent')).toContain(TRACE_ID);
      const second = await jsm.streams.getMessage(events.stream, { seq: 2 });
      expect(second.header.get('traceparent')).toBe('');

      for (let i = 0; received.length < 2 && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
      const [one, two] = received;
      expect(trace.getSpanContext(one!.trace)?.traceId).toBe(TRACE_ID);
      // An event recorded with no trace starts none of its own from a stranger's.
      const untracedContext = trace.getSpanContext(two!.trace);
      expect(untracedContext === undefined || !isSpanContextValid(untracedContext)).toBe(true);
    } finally {
      await consumer.stop();
    }
  });
});
