import type { Pool, PoolClient } from 'pg';
import { remainingCreates, type CreateQuota } from '../domain';
import { scopeParams, type CommandScope } from './stored-command';

// The start of the quota window holding the transaction's time: windows of $3 seconds since
// the Unix epoch (with a day's length, the UTC day). now() is the transaction's start, so a
// read and the count that follows it in one transaction fall in the same window.
export const WINDOW_START = 'to_timestamp(floor(extract(epoch FROM now()) / $3::int) * $3::int)';

/** The columns of a quota read (`w`: the current window, `d`: its daily_creates row). */
export const QUOTA_COLUMNS = `coalesce(d.count, 0) AS used,
  ceil(extract(epoch FROM w.start + make_interval(secs => $3::int) - now()) * 1000)::float8 AS reset_after_ms`;

export interface QuotaRow {
  used: number;
  reset_after_ms: number;
}

export function toQuota(row: QuotaRow | undefined, windowSeconds: number): CreateQuota {
  return {
    remaining: remainingCreates(row?.used ?? 0),
    resetAfterMs: row?.reset_after_ms ?? windowSeconds * 1000,
  };
}

/** The scope's quota in the current window: creates left, and milliseconds until it ends. */
export async function readCreateQuota(
  db: Pool | PoolClient,
  scope: CommandScope,
  windowSeconds: number,
): Promise<CreateQuota> {
  const { rows } = await db.query<QuotaRow>(
    `SELECT ${QUOTA_COLUMNS}
       FROM (SELECT ${WINDOW_START} AS start) w
       LEFT JOIN daily_creates d
         ON d.application_id = $1 AND d.guild_id = $2 AND d.window_start = w.start`,
    [...scopeParams(scope), windowSeconds],
  );
  return toQuota(rows[0], windowSeconds);
}
