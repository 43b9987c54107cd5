import type { Pool } from 'pg';
import { withTransaction } from '@acs/service-kit';
import { MAX_AUTHORIZATION_CODE_TTL_SECONDS } from '../domain/limits';

/** Rows (grants, for the grant step) taken per statement, so that no statement holds locks for long. */
const PRUNE_BATCH_SIZE = 1000;

/** What one batch did: how many rows it picked (a full batch means more may be left), how many it deleted. */
interface Batch {
  taken: number;
  deleted: number;
}

// A code expires at most MAX_AUTHORIZATION_CODE_TTL_SECONDS after it is issued, and is used
// after that: one used before the cutoff expired before the cutoff plus that. The bound keeps
// the scan on the expires_at index. SKIP LOCKED, here and below: replicas pruning at once
// split the rows, and an exchange holding a code is never waited for.
const DEAD_CODES_SQL = `
  DELETE FROM "oauth"."authorization_code" WHERE code_hash IN (
    SELECT code_hash FROM "oauth"."authorization_code"
     WHERE expires_at < $2 AND (expires_at < $1 OR used_at < $1)
     LIMIT $3 FOR UPDATE SKIP LOCKED)`;

// Revoked tokens go with their grant: revocation always revokes a whole grant.
const EXPIRED_ACCESS_TOKENS_SQL = `
  DELETE FROM "oauth"."access_token" WHERE token_hash IN (
    SELECT token_hash FROM "oauth"."access_token" WHERE expires_at < $1
     LIMIT $2 FOR UPDATE SKIP LOCKED)`;

// A test issuer's token is no use once expired.
const EXPIRED_TEST_TOKENS_SQL = `
  DELETE FROM "oauth"."test_external_token" WHERE token_hash IN (
    SELECT token_hash FROM "oauth"."test_external_token" WHERE expires_at < $1
     LIMIT $2 FOR UPDATE SKIP LOCKED)`;

// A grant is dead once revoked, or once none of its tokens is live: nothing can refresh it
// and revoking it would take nothing away, so its used refresh tokens (kept until then to
// detect their reuse) may go with it. Nothing brings a dead grant back: only a live refresh
// token adds tokens to a grant. FOR UPDATE holds off the foreign-key checks of any insert
// referencing it until it is deleted, and a refresh (which locks it first) altogether.
const DEAD_GRANTS_SQL = `
  SELECT id::text FROM "oauth"."token_grant" g
   WHERE g.revoked_at < $1
      OR (NOT EXISTS (SELECT 1 FROM "oauth"."refresh_token" r WHERE r.grant_id = g.id AND r.expires_at >= $1)
          AND NOT EXISTS (SELECT 1 FROM "oauth"."access_token" a WHERE a.grant_id = g.id AND a.expires_at >= $1))
   LIMIT $2 FOR UPDATE SKIP LOCKED`;

// Everything that references the grants, then the grants. Order matters: the foreign keys
// of access tokens and codes are ON DELETE SET NULL, and an access token without a grant
// is checked on its own, so deleting a grant under its tokens could bring them back to life.
const GRANT_FAMILY_SQL = [
  `DELETE FROM "oauth"."authorization_code" WHERE grant_id = ANY($1::bigint[])`,
  `DELETE FROM "oauth"."access_token" WHERE grant_id = ANY($1::bigint[])`,
  `DELETE FROM "oauth"."refresh_token" WHERE grant_id = ANY($1::bigint[])`,
  `DELETE FROM "oauth"."token_grant" WHERE id = ANY($1::bigint[])`,
];

/**
 * Deletes the authorization codes, access tokens, refresh tokens and grants that have been
 * dead since before `deadBefore` (the rules are in the README: "Pruning dead credentials"),
 * in batches of `batchSize`, until none is left or `signal` aborts; how many rows went.
 */
export async function pruneDeadCredentials(
  pool: Pool,
  deadBefore: Date,
  options: { signal?: AbortSignal; batchSize?: number } = {},
): Promise<number> {
  const { signal, batchSize = PRUNE_BATCH_SIZE } = options;
  const codeBound = new Date(deadBefore.getTime() + MAX_AUTHORIZATION_CODE_TTL_SECONDS * 1000);
  const statement = async (sql: string, values: unknown[]): Promise<Batch> => {
    const { rowCount } = await pool.query(sql, values);
    return { taken: rowCount ?? 0, deleted: rowCount ?? 0 };
  };
  const steps = [
    () => statement(DEAD_CODES_SQL, [deadBefore, codeBound, batchSize]),
    () => statement(EXPIRED_ACCESS_TOKENS_SQL, [deadBefore, batchSize]),
    () => statement(EXPIRED_TEST_TOKENS_SQL, [deadBefore, batchSize]),
    () => deleteDeadGrants(pool, deadBefore, batchSize),
  ];
  let deleted = 0;
  for (const step of steps) {
    while (!signal?.aborted) {
      const batch = await step();
      deleted += batch.deleted;
      if (batch.taken < batchSize) break;
    }
  }
  return deleted;
}

/** Deletes up to `batchSize` dead grants with everything that references them, in one transaction. */
async function deleteDeadGrants(pool: Pool, deadBefore: Date, batchSize: number): Promise<Batch> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string }>(DEAD_GRANTS_SQL, [deadBefore, batchSize]);
    let deleted = 0;
    if (rows.length > 0) {
      const ids = rows.map((r) => r.id);
      for (const sql of GRANT_FAMILY_SQL) deleted += (await client.query(sql, [ids])).rowCount ?? 0;
    }
    return { taken: rows.length, deleted };
  });
}
