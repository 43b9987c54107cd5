import { randomBytes } from 'node:crypto';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { createEvent, OutboxRelay, startEventConsumer, type ReceivedEvent } from '../src';
import { createOutboxTable } from './outbox-fixture';

const SCHEMA = 'lagtest';
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const suffix = randomBytes(4).toString('hex');
const events = { stream: `LAG_T${suffix}`, subjectPrefix: `lg${suffix}` };

/** A reader collecting on demand, as the Prometheus exporter does on each scrape. */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

let db: TestDatabase;
let pool: Pool;
let nats: NatsConnection;
const reader = new OnDemandReader();
const provider = new MeterProvider({ readers: [reader] });

beforeAll(async () => {
  metrics.setGlobalMeterProvider(provider);
  db = await createTestDatabase([]);
  pool = new Pool({ connectionString: db.url });
  pool.on('error', () => undefined);
  await createOutboxTable(pool, SCHEMA);
  nats = await connect({ servers: db.natsUrl });
});

afterAll(async () => {
  metrics.disable();
  await provider.shutdown();
  await (await nats.jetstreamManager()).streams.delete(events.stream).catch(() => undefined);
  await nats?.drain();
  await pool?.end();
  await db?.drop();
});

/** The histogram points of `name`: their attributes, count and sum (seconds). */
async function histogram(name: string) {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === name);
  if (!metric) return [];
  expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
  return (metric as HistogramMetricData).dataPoints.map((p) => ({
    attributes: p.attributes,
    count: p.value.count,
    sum: p.value.sum,
  }));
}

describe('the event pipeline’s lag', () => {
  it('is recorded at the relay from the row’s insertion, and at the consumer from the change', async () => {
    const received: ReceivedEvent<'oauth.application.bot_token_reset'>[] = [];
    const consumer = startEventConsumer({
      nats,
      events,
      consumer: { name: 'lagged' },
      names: ['oauth.application.bot_token_reset'],
      logger: quiet,
      handle: async (event) => void received.push(event),
    });
    try {
      await consumer.ready;
      // An event made 3 s ago, its row inserted 2 s ago (the relay was behind).
      const row = createEvent('oauth.application.bot_token_reset', { application_id: '1' });
      row.payload.occurred_at = new Date(Date.now() - 3000).toISOString();
      await pool.query(
        `INSERT INTO ${SCHEMA}.outbox (id, subject, payload, created_at)
         VALUES ($1, $2, $3, localtimestamp - interval '2 seconds')`,
        [row.id, row.subject, row.payload],
      );
      expect(await new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet, events }).relayBatch()).toBe(
        1,
      );
      for (let i = 0; received.length < 1 && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
      expect(received).toHaveLength(1);

      const [relay] = await histogram('messaging.outbox.lag');
      expect(relay?.attributes).toEqual({
        'messaging.system': 'nats',
        'acs.event.name': 'oauth.application.bot_token_reset',
      });
      expect(relay?.count).toBe(1);
      expect(relay?.sum).toBeGreaterThanOrEqual(2);
      expect(relay?.sum).toBeLessThan(10);

      const [consumed] = await histogram('messaging.consumer.lag');
      expect(consumed?.attributes).toEqual({
        'messaging.system': 'nats',
        'messaging.consumer.group.name': 'lagged',
        'acs.event.name': 'oauth.application.bot_token_reset',
      });
      expect(consumed?.count).toBe(1);
      expect(consumed?.sum).toBeGreaterThanOrEqual(3);
      expect(consumed?.sum).toBeLessThan(10);
    } finally {
      await consumer.stop();
    }
  });
});
