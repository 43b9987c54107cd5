import { Pool } from 'pg';
import type { Logger } from 'pino';
import { serviceDatabaseUrl } from './parse-config';

/**
 * The connection pool of a service: the shared DATABASE_URL with the service's schema
 * as search_path. An idle connection that the server drops (restart, failover) is
 * logged and replaced on next use; without this listener pg would crash the process.
 *
 * So is one that is checked out: a PostgreSQL restart sends every session an error
 * (57P01, "terminating connection due to administrator command"), and a client that is
 * between two queries (a transaction awaiting a NATS publish or a gRPC call) emits it as an
 * 'error' event, which pg-pool listens to only while the client is idle: with no listener,
 * the process died (found by bench/chaos-bench.js). The client's next query fails instead,
 * and pg-pool discards a client that is no longer queryable when it is released.
 *
 * `settings` are set on every connection at its start (`-c name=value`), e.g. a limit a
 * trigger reads with current_setting().
 */
export function createDatabasePool(options: {
  databaseUrl: string;
  schema: string;
  size: number;
  logger: Logger;
  settings?: Record<string, string>;
}): Pool {
  const pool = new Pool({
    connectionString: serviceDatabaseUrl(options.databaseUrl, options.schema, options.settings),
    max: options.size,
  });
  pool.on('error', (error) => options.logger.warn({ err: error }, 'idle database connection lost'));
  pool.on('connect', (client) =>
    client.on('error', (error) => options.logger.warn({ err: error }, 'database connection lost')),
  );
  return pool;
}
