import { hostname } from 'node:os';
import type { Pool } from 'pg';
import type { Logger } from 'pino';

/** A snowflake process id held by this replica. */
export interface SnowflakeLease {
  processId: number;
  /** Gives the id back (on shutdown), so that a replacement replica can take it at once. */
  release(): Promise<void>;
}

const PROCESS_IDS = 32;

/**
 * Claims a snowflake process id (0-31) that no live replica of this service holds, in the
 * service's `snowflake_lease` table, and renews it while the process runs. Replicas of
 * one Deployment share a worker id; distinct process ids are what keeps their ids apart.
 * A replica that cannot renew (database unreachable past the lease) stops the process
 * through `onLost` rather than risk minting another replica's ids.
 */
export async function leaseSnowflakeProcessId(options: {
  pool: Pool;
  logger: Logger;
  leaseSeconds?: number;
  onLost?: () => void;
}): Promise<SnowflakeLease> {
  const leaseSeconds = options.leaseSeconds ?? 60;
  const holder = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const processId = await claim(options.pool, holder, leaseSeconds);
  options.logger.info({ processId }, 'snowflake process id leased');

  let lastRenewed = Date.now();
  const renew = async (): Promise<void> => {
    try {
      const { rowCount } = await options.pool.query(
        `UPDATE snowflake_lease SET expires_at = now() + make_interval(secs => $3)
          WHERE process_id = $1 AND holder = $2`,
        [processId, holder, leaseSeconds],
      );
      if (rowCount === 1) {
        lastRenewed = Date.now();
        return;
      }
      options.logger.fatal({ processId }, 'snowflake lease taken by another replica');
      (options.onLost ?? defaultOnLost)();
    } catch (error) {
      // A brief outage is fine while the lease has time left; past it, another replica may hold the id.
      if (Date.now() - lastRenewed > leaseSeconds * 1000 * 0.9) {
        options.logger.fatal({ err: error, processId }, 'snowflake lease could not be renewed');
        (options.onLost ?? defaultOnLost)();
      } else {
        options.logger.warn({ err: error, processId }, 'snowflake lease renewal failed; retrying');
      }
    }
  };
  const timer = setInterval(() => void renew(), (leaseSeconds * 1000) / 3);
  timer.unref();

  return {
    processId,
    async release() {
      clearInterval(timer);
      await options.pool
        .query('DELETE FROM snowflake_lease WHERE process_id = $1 AND holder = $2', [processId, holder])
        .catch(() => undefined);
    },
  };
}

/**
 * Takes a free (or expired) id chosen at random, so that replicas starting together rarely
 * reach for the same one; the conflict clause settles the races that remain.
 */
async function claim(pool: Pool, holder: string, leaseSeconds: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { rows } = await pool.query<{ process_id: number }>(
      `INSERT INTO snowflake_lease (process_id, holder, expires_at)
       SELECT n, $1, now() + make_interval(secs => $2)
         FROM generate_series(0, $3 - 1) AS n
        WHERE NOT EXISTS (SELECT 1 FROM snowflake_lease l WHERE l.process_id = n AND l.expires_at > now())
        ORDER BY random() LIMIT 1
       ON CONFLICT (process_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
        WHERE snowflake_lease.expires_at <= now()
       RETURNING process_id`,
      [holder, leaseSeconds, PROCESS_IDS],
    );
    if (rows[0]) return rows[0].process_id;
    const { rows: live } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM snowflake_lease WHERE expires_at > now()',
    );
    if ((live[0]?.n ?? 0) >= PROCESS_IDS) {
      throw new Error(
        `all ${PROCESS_IDS} snowflake process ids are held: run at most ${PROCESS_IDS} replicas`,
      );
    }
  }
  throw new Error('could not lease a snowflake process id (contention)');
}

function defaultOnLost(): void {
  process.exit(1);
}

/** The configured process id when there is one (nothing to lease), else a leased one. */
export async function holdSnowflakeProcessId(
  configured: number | undefined,
  options: { pool: Pool; logger: Logger },
): Promise<SnowflakeLease> {
  if (configured !== undefined) return { processId: configured, release: async () => undefined };
  return leaseSnowflakeProcessId(options);
}
