import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { writeOutboxRows } from '@acs/events';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { createLogger, startServiceRuntime, type DatabaseConfig, type Telemetry } from '../src';

const logger = createLogger('test', 'silent');
const SCHEMA = 'runtime_test';

/** A telemetry that records its shutdown in `stopped`. */
function telemetryInto(stopped: string[]): Telemetry {
  return { listening: async () => ({}), shutdown: async () => void stopped.push('telemetry') };
}

const baseConfig = { LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 10_000 };

type SignalListener = (...args: unknown[]) => void;
/** Signal listeners installShutdown adds, removed after each test so none outlives it. */
let signalListeners: { SIGTERM: SignalListener[]; SIGINT: SignalListener[] };
beforeEach(() => {
  signalListeners = {
    SIGTERM: process.listeners('SIGTERM') as SignalListener[],
    SIGINT: process.listeners('SIGINT') as SignalListener[],
  };
});
afterEach(() => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    for (const listener of process.listeners(signal)) {
      if (!signalListeners[signal].includes(listener as SignalListener))
        process.removeListener(signal, listener);
    }
  }
});

describe('startServiceRuntime without a database (api-gateway)', () => {
  it('stops the work, then the connections, in the order added, and telemetry last', async () => {
    const stopped: string[] = [];
    const runtime = await startServiceRuntime('svc', baseConfig, telemetryInto(stopped), {
      logger,
    });
    const stop = (name: string) => () => void stopped.push(name);
    runtime.onShutdown('http', stop('http'));
    runtime.onShutdown('grpc clients', stop('grpc clients'), 'connections');
    runtime.onShutdown('consumer', stop('consumer'));
    runtime.onShutdown('redis', stop('redis'), 'connections');

    expect(runtime.shutdownSteps().map((s) => s.name)).toEqual([
      'http',
      'consumer',
      'grpc clients',
      'redis',
      'telemetry',
    ]);
    await runtime.installShutdown()();
    expect(stopped).toEqual(['http', 'consumer', 'grpc clients', 'redis', 'telemetry']);
    expect('pool' in runtime).toBe(false);
  });

  it('runs every later stop when one throws or rejects', async () => {
    const stopped: string[] = [];
    const runtime = await startServiceRuntime('svc', baseConfig, telemetryInto(stopped), {
      logger,
    });
    runtime.onShutdown('grpc', () => {
      throw new Error('drain failed');
    });
    runtime.onShutdown('consumer', () => void stopped.push('consumer'));
    runtime.onShutdown('client', () => Promise.reject(new Error('close failed')), 'connections');
    runtime.onShutdown('redis', () => void stopped.push('redis'), 'connections');

    await runtime.installShutdown()();
    expect(stopped).toEqual(['consumer', 'redis', 'telemetry']);
  });

  it('runs the stops once however often shutdown is asked for', async () => {
    const stopped: string[] = [];
    const runtime = await startServiceRuntime('svc', baseConfig, telemetryInto(stopped), {
      logger,
    });
    runtime.onShutdown('grpc', () => void stopped.push('grpc'));
    const shutdown = runtime.installShutdown();
    await Promise.all([shutdown(), shutdown()]);
    expect(stopped).toEqual(['grpc', 'telemetry']);
  });
});

describe('startServiceRuntime with a database', () => {
  let db: TestDatabase;
  let admin: Pool;
  let config: DatabaseConfig;

  beforeAll(async () => {
    db = await createTestDatabase([]);
    admin = new Pool({ connectionString: db.url });
    admin.on('error', () => undefined);
    // The tables as each service's migration creates them.
    await admin.query(`CREATE SCHEMA ${SCHEMA}`);
    await admin.query(`CREATE TABLE ${SCHEMA}.snowflake_lease (
      process_id integer PRIMARY KEY, holder text NOT NULL, expires_at timestamptz(3) NOT NULL)`);
    await admin.query(`CREATE TABLE ${SCHEMA}.outbox (
      id text PRIMARY KEY, seq bigserial UNIQUE, subject text NOT NULL, payload jsonb NOT NULL,
      created_at timestamp(3) NOT NULL DEFAULT now(), published_at timestamp(3), trace_context jsonb)`);
    const tag = randomBytes(4).toString('hex');
    config = {
      ...baseConfig,
      DATABASE_URL: db.url,
      DB_POOL_SIZE: 2,
      NATS_URL: db.natsUrl,
      EVENTS_STREAM: `RUNTIME_${tag}`,
      EVENTS_SUBJECT_PREFIX: `runtime${tag}`,
      EVENTS_RETENTION_HOURS: 1,
      EVENTS_STREAM_REPLICAS: 1,
      SNOWFLAKE_WORKER_ID: 3,
    };
  });

  afterAll(async () => {
    // The stream the relay made for this file.
    const nats = await connect({ servers: db.natsUrl });
    await (await nats.jetstreamManager()).streams.delete(config.EVENTS_STREAM).catch(() => false);
    await nats.drain();
    await admin?.end();
    await db?.drop();
  });

  it('holds a process id, relays the outbox, and stops relay, lease and pool at their places', async () => {
    const nats: NatsConnection = await connect({ servers: db.natsUrl });
    const stopped: string[] = [];
    const runtime = await startServiceRuntime('svc', config, telemetryInto(stopped), {
      logger,
      database: { schema: SCHEMA, snowflakes: true, outbox: true },
    });
    try {
      const { rows: leases } = await admin.query(`SELECT process_id FROM ${SCHEMA}.snowflake_lease`);
      expect(leases).toHaveLength(1);
      expect(runtime.ids.next()).toMatch(/^\d+$/);
      await expect(runtime.databaseAnswers()).resolves.toBe(true);

      // The relay reads this schema's outbox and publishes under the configured prefix.
      const published = nats.subscribe(`${config.EVENTS_SUBJECT_PREFIX}.svc.>`, { max: 1 });
      await writeOutboxRows(runtime.pool, SCHEMA, [
        {
          id: 'e1',
          subject: 'acs.svc.thing.happened',
          payload: { id: 'e1', type: 'thing.happened', occurred_at: new Date().toISOString(), data: {} },
          traceContext: null,
        },
      ]);
      for await (const message of published)
        expect(message.subject).toBe(`${config.EVENTS_SUBJECT_PREFIX}.svc.thing.happened`);

      runtime.onShutdown('grpc', () => void stopped.push('grpc'));
      runtime.onShutdown('oauth client', () => void stopped.push('oauth client'), 'connections');
      expect(runtime.shutdownSteps().map((s) => s.name)).toEqual([
        'grpc',
        'outbox relay',
        'oauth client',
        'snowflake lease',
        'database pool',
        'telemetry',
      ]);
      await runtime.installShutdown()();
      expect(stopped).toEqual(['grpc', 'oauth client', 'telemetry']);
      expect(runtime.pool.ended).toBe(true);
      const { rows: after } = await admin.query(`SELECT process_id FROM ${SCHEMA}.snowflake_lease`);
      expect(after).toEqual([]);
    } finally {
      if (!runtime.pool.ended) await runtime.pool.end();
      await nats.drain();
    }
  });

  it('opens only the pool when the service asks for neither ids nor the outbox (dispatcher)', async () => {
    const stopped: string[] = [];
    const runtime = await startServiceRuntime('svc', config, telemetryInto(stopped), {
      logger,
      database: { schema: SCHEMA },
    });
    runtime.onShutdown('nats', () => void stopped.push('nats'), 'connections');
    expect(runtime.shutdownSteps().map((s) => s.name)).toEqual(['nats', 'database pool', 'telemetry']);
    expect('ids' in runtime).toBe(false);
    // The pool's search_path is the service's schema.
    const { rows } = await runtime.pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox');
    expect(rows).toHaveLength(1);
    await runtime.installShutdown()();
    expect(runtime.pool.ended).toBe(true);
    expect(stopped).toEqual(['nats', 'telemetry']);
  });

  it('uses the configured process id without leasing one', async () => {
    const runtime = await startServiceRuntime(
      'svc',
      { ...config, SNOWFLAKE_PROCESS_ID: 7 },
      telemetryInto([]),
      {
        logger,
        database: { schema: SCHEMA, snowflakes: true },
      },
    );
    const { rows } = await admin.query(`SELECT process_id FROM ${SCHEMA}.snowflake_lease`);
    expect(rows).toEqual([]);
    expect(runtime.shutdownSteps().map((s) => s.name)).toEqual([
      'snowflake lease',
      'database pool',
      'telemetry',
    ]);
    await runtime.installShutdown()();
  });
});
