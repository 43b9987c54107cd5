import { z } from 'zod';

/** Thrown when the environment does not satisfy a service's config schema. */
export class ConfigError extends Error {}

/**
 * Parses a service's environment against its schema once, at start. Every problem is
 * reported at once, by variable name, so that a misconfigured deployment fails loudly.
 */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

/** Schema pieces every service shares. */
export const commonConfig = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** Snowflake worker id (0-31): distinct per service. */
  SNOWFLAKE_WORKER_ID: z.coerce.number().int().min(0).max(31).default(0),
  /**
   * Snowflake process id (0-31), distinct per replica. Unset: each replica leases a free
   * one from its database (services with a schema), so that scaling needs no numbering.
   */
  SNOWFLAKE_PROCESS_ID: z.coerce.number().int().min(0).max(31).optional(),
  /** Milliseconds allowed for in-flight work to finish on SIGTERM. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
};

/** Settings of every service that owns a database schema and publishes events. */
export const dataServiceConfig = {
  /** The shared database; each service adds its own schema as search_path. */
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/acs'),
  DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** JetStream stream and subject prefix of events (test stacks sharing a NATS use their own). */
  EVENTS_STREAM: z.string().default('ACS_EVENTS'),
  EVENTS_SUBJECT_PREFIX: z.string().default('acs'),
  /**
   * How long events are kept: the stream's max_age, published outbox rows, and the
   * dispatcher's records of handled events and finished webhook deliveries.
   */
  EVENTS_RETENTION_HOURS: z.coerce.number().int().positive().default(168),
  /**
   * How many NATS servers keep each event (the stream's replicas): 1 for one server, 3 on
   * a three-server JetStream cluster (k8s/components/nats-cluster). At most 5, JetStream's
   * limit.
   */
  EVENTS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
};

/**
 * The connection string of one service: the shared DATABASE_URL with the service's own
 * schema as search_path, so that its tables and migration history stay in its schema;
 * `settings` (names and values without spaces) are set on each connection too.
 */
export function serviceDatabaseUrl(
  baseUrl: string,
  schema: string,
  settings: Record<string, string> = {},
): string {
  const url = new URL(baseUrl);
  const options = [`search_path=${schema}`, ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)];
  url.searchParams.set('options', options.map((option) => `-c ${option}`).join(' '));
  return url.toString();
}
