import type { Pool, PoolClient } from 'pg';
import { withTransaction } from '@acs/service-kit';
import type { GatewayPrincipal } from '../domain/gateway-principal';
import {
  decideIdentify,
  type IdentifyDecision,
  type IdentifyLimits,
  type IdentifyUsage,
} from '../domain/identify-limits';

/**
 * Reads the usage of a bot (`column` application_id) or a user (user_id) $1 for rate-limit
 * key $2, timed by the database's clock.
 */
const usageSql = (column: 'application_id' | 'user_id') => `
  WITH clock AS (SELECT clock_timestamp() AS now)
  SELECT count(i.id) FILTER (WHERE i.identified_at > clock.now - make_interval(secs => $3::float8 / 1000))::int AS count,
         extract(epoch FROM clock.now - min(i.identified_at)
           FILTER (WHERE i.identified_at > clock.now - make_interval(secs => $3::float8 / 1000)))::float8 * 1000
           AS since_oldest_ms,
         extract(epoch FROM clock.now - max(i.identified_at) FILTER (WHERE i.rate_limit_key = $2))::float8 * 1000
           AS since_last_of_key_ms
    FROM clock
    LEFT JOIN dispatcher.gateway_identify i
      ON i.${column} = $1
     AND i.identified_at > clock.now - make_interval(secs => greatest($3::float8, $4::float8) / 1000)
   GROUP BY clock.now`;
const USAGE_SQL = { bot: usageSql('application_id'), user: usageSql('user_id') };

/** The principal's id and the column that holds it. */
function subjectOf(principal: GatewayPrincipal): { column: 'application_id' | 'user_id'; id: string } {
  return principal.kind === 'bot'
    ? { column: 'application_id', id: principal.applicationId }
    : { column: 'user_id', id: principal.userId };
}

/**
 * The Identifies of every application's bot and every user's chat client, each counted
 * apart, in the database rather than in a replica's memory: the limits hold whichever
 * dispatcher a client reaches, `session_start_limit` is the same whichever answers, and
 * both survive restarts. Every time is the database's.
 */
export class IdentifyStore {
  constructor(
    private readonly pool: Pool,
    readonly limits: IdentifyLimits,
  ) {}

  /**
   * Decides an Identify of the principal (a bot, or a user's chat client) in bucket
   * `rateLimitKey` and, when it is granted, counts it. The principal's Identifies are
   * serialized by a transaction advisory lock, so two replicas cannot both take the last
   * start or the same bucket.
   */
  async claim(principal: GatewayPrincipal, rateLimitKey: number): Promise<IdentifyDecision> {
    const { column, id } = subjectOf(principal);
    return withTransaction(this.pool, async (client) => {
      // A bot's lock key is the one replicas before user sessions took: a rolling update keeps the limits.
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        principal.kind === 'bot'
          ? `dispatcher.gateway_identify:${id}`
          : `dispatcher.gateway_identify:user:${id}`,
      ]);
      const decision = decideIdentify(this.limits, await this.read(client, principal, rateLimitKey));
      if (decision.granted) {
        await client.query(
          `INSERT INTO dispatcher.gateway_identify (${column}, rate_limit_key, identified_at)
         VALUES ($1, $2, clock_timestamp())`,
          [id, rateLimitKey],
        );
      }
      return decision;
    });
  }

  /** The principal's Identifies within the limits' windows (bucket 0's for the last one). */
  async usage(principal: GatewayPrincipal): Promise<IdentifyUsage> {
    return this.read(this.pool, principal, 0);
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
    principal: GatewayPrincipal,
    rateLimitKey: number,
  ): Promise<IdentifyUsage> {
    const { rows } = await db.query<{
      count: number;
      since_oldest_ms: number | null;
      since_last_of_key_ms: number | null;
    }>(USAGE_SQL[principal.kind], [
      subjectOf(principal).id,
      rateLimitKey,
      this.limits.windowMs,
      this.limits.concurrencyWindowMs,
    ]);
    const row = rows[0];
    return {
      count: row?.count ?? 0,
      sinceOldestMs: row?.since_oldest_ms ?? null,
      sinceLastOfKeyMs: row?.since_last_of_key_ms ?? null,
    };
  }
}
