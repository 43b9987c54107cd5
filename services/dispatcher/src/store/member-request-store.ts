import type { Pool } from 'pg';

/** The answer to a request for all of a guild's members: granted, or how long until it may be. */
export type MemberRequestDecision = { granted: true } | { granted: false; retryAfterMs: number };

/**
 * Requests for ALL members of a guild (op 8 with `query` "" and `limit` 0), one per guild
 * per bot per interval, counted in the database so that the limit holds whichever replica
 * the bot's shards reach (D:change-log.mdx §Introducing Rate Limit When Requesting All
 * Guild Members). Times are the database's.
 */
export class MemberRequestStore {
  constructor(
    private readonly pool: Pool,
    private readonly intervalMs: number,
  ) {}

  /** Takes the guild's slot for the bot when the last request is older than the interval, atomically. */
  async claim(applicationId: string, guildId: string): Promise<MemberRequestDecision> {
    const { rows } = await this.pool.query<{ granted: boolean; retry_after_ms: number }>(
      `WITH clock AS (SELECT clock_timestamp() AS now),
            taken AS (
              INSERT INTO dispatcher.guild_member_request AS r (application_id, guild_id, requested_at)
              SELECT $1, $2, now FROM clock
              ON CONFLICT (application_id, guild_id) DO UPDATE SET requested_at = EXCLUDED.requested_at
               WHERE r.requested_at <= EXCLUDED.requested_at - make_interval(secs => $3::float8 / 1000)
              RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM taken) AS granted,
              coalesce((SELECT extract(epoch FROM r.requested_at - clock.now)::float8 * 1000 + $3::float8
                          FROM dispatcher.guild_member_request r, clock
                         WHERE r.application_id = $1 AND r.guild_id = $2), 0) AS retry_after_ms`,
      [applicationId, guildId, this.intervalMs],
    );
    const row = rows[0];
    if (!row || row.granted) return { granted: true };
    return { granted: false, retryAfterMs: Math.max(0, row.retry_after_ms) };
  }

  /** Deletes the requests past the interval; returns how many. */
  async prune(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM dispatcher.guild_member_request
        WHERE requested_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)`,
      [this.intervalMs],
    );
    return rowCount ?? 0;
  }
}
