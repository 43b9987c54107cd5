import type { Pool, PoolClient } from 'pg';
import {
  decideIdentify,
  type IdentifyDecision,
  type IdentifyLimits,
  type IdentifyUsage,
} from '../domain/identify-limits';

/** Reads an application's usage ($1) for rate-limit key $2, timed by the database's clock. */
const USAGE_SQL = `
  WITH clock AS (SELECT clock_timestamp() AS now)
  SELECT count(i.id) FILTER (WHERE i.identified_at > clock.now - make_interval(secs => $3::float8 / 1000))::int AS count,
         extract(epoch FROM clock.now - min(i.identified_at)
           FILTER (WHERE i.identified_at > clock.now - make_interval(secs => $3::float8 / 1000)))::float8 * 1000
           AS since_oldest_ms,
         extract(epoch FROM clock.now - max(i.identified_at) FILTER (WHERE i.rate_limit_key = $2))::float8 * 1000
           AS since_last_of_key_ms
    FROM clock
    LEFT JOIN dispatcher.gateway_identify i
      ON i.application_id = $1
     AND i.identified_at > clock.now - make_interval(secs => greatest($3::float8, $4::float8) / 1000)
   GROUP BY clock.now`;

/**
 * The Identifies of every application, in the database rather than in a replica's
 * memory: the limits hold whichever dispatcher a bot reaches, `session_start_limit` is
 * the same whichever answers, and both survive restarts. Every time is the database's.
 */
export class IdentifyStore {
  constructor(
    private readonly pool: Pool,
    readonly limits: IdentifyLimits,
  ) {}

  /**
   * Decides an Identify of the application's bot in bucket `rateLimitKey` and, when it
   * is granted, counts it. The application's Identifies are serialized by a transaction
   * advisory lock, so two replicas cannot both take the last start or the same bucket.
   */
  async claim(applicationId: string, rateLimitKey: number): Promise<IdentifyDecision> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `dispatcher.gateway_identify:${applicationId}`,
      ]);
      const decision = decideIdentify(this.limits, await this.read(client, applicationId, rateLimitKey));
      if (decision.granted) {
        await client.query(
          `INSERT INTO dispatcher.gateway_identify (application_id, rate_limit_key, identified_at)
           VALUES ($1, $2, clock_timestamp())`,
          [applicationId, rateLimitKey],
        );
      }
      await client.query('COMMIT');
      return decision;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The application's Identifies within the limits' windows (bucket 0's for the last one). */
  async usage(applicationId: string): Promise<IdentifyUsage> {
    return this.read(this.pool, applicationId, 0);
  }

  /** Deletes the Identifies that left every window; returns how many. */
  async prune(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM dispatcher.gateway_identify
        WHERE identified_at < clock_timestamp() - make_interval(secs => greatest($1::float8, $2::float8) / 1000)`,
      [this.limits.windowMs, this.limits.concurrencyWindowMs],
    );
    return rowCount ?? 0;
  }

  private async read(
    db: Pool | PoolClient,
    applicationId: string,
    rateLimitKey: number,
  ): Promise<IdentifyUsage> {
    const { rows } = await db.query<{
      count: number;
      since_oldest_ms: number | null;
      since_last_of_key_ms: number | null;
    }>(USAGE_SQL, [applicationId, rateLimitKey, this.limits.windowMs, this.limits.concurrencyWindowMs]);
    const row = rows[0];
    return {
      count: row?.count ?? 0,
      sinceOldestMs: row?.since_oldest_ms ?? null,
      sinceLastOfKeyMs: row?.since_last_of_key_ms ?? null,
    };
  }
}
