import type { Pool } from 'pg';
import { eventStreamOf, startOutboxRelay, type EventSettings, type RunningRelay } from '@acs/events';
import { createSnowflakeGenerator, type SnowflakeGenerator } from '@acs/snowflake';
import { createDatabasePool } from './create-database-pool';
import { createLogger, type Logger } from './create-logger';
import { installGracefulShutdown, type ShutdownStep } from './graceful-shutdown';
import { holdSnowflakeProcessId, type SnowflakeLease } from './lease-snowflake-process-id';
import { reportListening, type ListeningPorts } from './report-listening';
import type { Telemetry } from './start-telemetry';

/** The settings every service's runtime reads (parse-config's commonConfig). */
export interface RuntimeConfig {
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
}

/** The settings of a service with a database schema (parse-config's dataServiceConfig). */
export interface DatabaseConfig extends RuntimeConfig, EventSettings {
  DATABASE_URL: string;
  DB_POOL_SIZE: number;
  NATS_URL: string;
  SNOWFLAKE_WORKER_ID: number;
  SNOWFLAKE_PROCESS_ID?: number | undefined;
}

/** What of the database a service uses: its pool always; ids and the outbox relay if it says so. */
export interface DatabaseParts {
  /** The service's schema: the pool's search_path and the outbox the relay reads. */
  schema: string;
  /** Set on every connection (createDatabasePool's `settings`). */
  settings?: Record<string, string>;
  /** Holds a snowflake process id (leased unless SNOWFLAKE_PROCESS_ID is set) for an id generator. */
  snowflakes?: boolean;
  /** Relays the schema's outbox to NATS. */
  outbox?: boolean;
}

/**
 * When a service's own stop runs: `work` (its servers first, then consumers, workers and
 * timers) before the outbox relay stops; `connections` (peer clients, an ORM client, and
 * what else must outlive the relay) after it, before the snowflake lease and the pool.
 */
export type ShutdownPhase = 'work' | 'connections';

/** A started service's shared parts, and the ordered list that stops them. */
export interface ServiceRuntime {
  readonly logger: Logger;
  /**
   * Adds a stop of the service's own, run in the order added within its phase. The whole
   * order: `work` stops, the outbox relay, `connections` stops, the snowflake lease, the
   * database pool, telemetry.
   */
  onShutdown(name: string, run: ShutdownStep['run'], phase?: ShutdownPhase): void;
  /** The stops in the order they run. */
  shutdownSteps(): ShutdownStep[];
  /**
   * Runs the stops in order on SIGTERM or SIGINT (at most SHUTDOWN_TIMEOUT_MS); answers the
   * function that runs them, for tests and launchers.
   */
  installShutdown(): () => Promise<void>;
  /** Logs `<name> listening` with `fields` and reports `ports` and telemetry's to the launcher. */
  reportListening(ports: ListeningPorts, fields?: Record<string, unknown>): Promise<void>;
}

/** A runtime with a database: the pool, and whether the database answers (for readiness). */
export interface DatabaseRuntime extends ServiceRuntime {
  readonly pool: Pool;
  /** Whether the database answers a query (rejects when it does not). */
  databaseAnswers(): Promise<true>;
}

/** A runtime that also holds a snowflake process id: the generator of this replica's ids. */
export interface SnowflakeRuntime extends DatabaseRuntime {
  readonly ids: SnowflakeGenerator;
}

/** What a service may add to its runtime. */
interface RuntimeOptions {
  /** The logger to use (tests); by default one of the service's name at LOG_LEVEL. */
  logger?: Logger;
}

/**
 * Starts what every service starts the same way, and keeps the ordered list that stops it:
 * the logger (named `name`, as the service's NATS connections and `listening` line); with
 * `database`, the pool, with `snowflakes` the held process id and its generator, with
 * `outbox` the relay. The service then builds its own parts, adds their stops with
 * `onShutdown`, and calls `installShutdown` once it listens.
 */
export async function startServiceRuntime(
  name: string,
  config: DatabaseConfig,
  telemetry: Telemetry,
  options: RuntimeOptions & { database: DatabaseParts & { snowflakes: true } },
): Promise<SnowflakeRuntime>;
export async function startServiceRuntime(
  name: string,
  config: DatabaseConfig,
  telemetry: Telemetry,
  options: RuntimeOptions & { database: DatabaseParts },
): Promise<DatabaseRuntime>;
export async function startServiceRuntime(
  name: string,
  config: RuntimeConfig,
  telemetry: Telemetry,
  options?: RuntimeOptions,
): Promise<ServiceRuntime>;
export async function startServiceRuntime(
  name: string,
  config: RuntimeConfig | DatabaseConfig,
  telemetry: Telemetry,
  options: RuntimeOptions & { database?: DatabaseParts } = {},
): Promise<ServiceRuntime | DatabaseRuntime | SnowflakeRuntime> {
  const { database } = options;
  const logger = options.logger ?? createLogger(name, config.LOG_LEVEL);
  const opened = database ? await openDatabase(name, config as DatabaseConfig, database, logger) : undefined;
  const work: ShutdownStep[] = [];
  const connections: ShutdownStep[] = [];

  const runtime: ServiceRuntime = {
    logger,
    onShutdown(stepName, run, phase = 'work') {
      (phase === 'work' ? work : connections).push({ name: stepName, run });
    },
    shutdownSteps() {
      const { relay, lease, pool } = opened ?? {};
      return [
        ...work,
        ...(relay ? [{ name: 'outbox relay', run: () => relay.stop() }] : []),
        ...connections,
        ...(lease ? [{ name: 'snowflake lease', run: () => lease.release() }] : []),
        ...(pool ? [{ name: 'database pool', run: () => pool.end() }] : []),
        { name: 'telemetry', run: () => telemetry.shutdown() },
      ];
    },
    installShutdown() {
      return installGracefulShutdown(logger, runtime.shutdownSteps(), config.SHUTDOWN_TIMEOUT_MS);
    },
    async reportListening(ports, fields = {}) {
      logger.info(fields, `${name} listening`);
      reportListening({ ...ports, ...(await telemetry.listening()) });
    },
  };
  if (!opened) return runtime;
  const { pool, ids } = opened;
  const withDatabase: DatabaseRuntime = {
    ...runtime,
    pool,
    async databaseAnswers() {
      await pool.query('SELECT 1');
      return true;
    },
  };
  return ids ? { ...withDatabase, ids } : withDatabase;
}

/** The database parts a service asked for, opened in order: pool, snowflake lease, relay. */
async function openDatabase(
  name: string,
  config: DatabaseConfig,
  database: DatabaseParts,
  logger: Logger,
): Promise<{ pool: Pool; lease?: SnowflakeLease; ids?: SnowflakeGenerator; relay?: RunningRelay }> {
  const pool = createDatabasePool({
    databaseUrl: config.DATABASE_URL,
    schema: database.schema,
    size: config.DB_POOL_SIZE,
    logger,
    ...(database.settings ? { settings: database.settings } : {}),
  });
  let lease: SnowflakeLease | undefined;
  try {
    if (database.snowflakes)
      lease = await holdSnowflakeProcessId(config.SNOWFLAKE_PROCESS_ID, { pool, logger });
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const relay = database.outbox
    ? startOutboxRelay({
        pool,
        schema: database.schema,
        natsUrl: config.NATS_URL,
        logger,
        name,
        events: eventStreamOf(config),
      })
    : undefined;
  return {
    pool,
    ...(lease
      ? {
          lease,
          ids: createSnowflakeGenerator({ workerId: config.SNOWFLAKE_WORKER_ID, processId: lease.processId }),
        }
      : {}),
    ...(relay ? { relay } : {}),
  };
}
