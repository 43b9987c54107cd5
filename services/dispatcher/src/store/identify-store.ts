import type { Pool } from 'pg';

/** How long an Identify counts against `session_start_limit` (D:events/gateway.mdx). */
export const IDENTIFY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** An application's Identifies of the last 24 hours. */
export interface IdentifyUsage {
  count: number;
  /** When the oldest of them happened (the window frees one start 24 hours later). */
  oldestAt: Date | undefined;
}

/**
 * The Identifies of every application, in the database rather than in a replica's
 * memory: `session_start_limit` is the same whichever dispatcher answers, and survives
 * restarts.
 */
export class IdentifyStore {
  constructor(private readonly pool: Pool) {}

  /** Counts one Identify of the application's bot, now. */
  async record(applicationId: string): Promise<void> {
    await this.pool.query('INSERT INTO dispatcher.gateway_identify (application_id) VALUES ($1)', [
      applicationId,
    ]);
  }

  /** The application's Identifies within the window. */
  async usage(applicationId: string): Promise<IdentifyUsage> {
    const { rows } = await this.pool.query<{ count: number; oldest_at: Date | null }>(
      `SELECT count(*)::int AS count, min(identified_at) AS oldest_at
         FROM dispatcher.gateway_identify
        WHERE application_id = $1 AND identified_at > now() - make_interval(secs => $2::double precision / 1000)`,
      [applicationId, IDENTIFY_WINDOW_MS],
    );
    const row = rows[0];
    return { count: row?.count ?? 0, oldestAt: row?.oldest_at ?? undefined };
  }

  /** Deletes the Identifies that left the window; returns how many. */
  async prune(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM dispatcher.gateway_identify
        WHERE identified_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [IDENTIFY_WINDOW_MS],
    );
    return rowCount ?? 0;
  }
}
