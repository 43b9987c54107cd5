import type { Pool } from 'pg';
import { withTransaction } from '@acs/service-kit';
import { generateIdTokenKey, type IdTokenKey, type PublicJwk } from '../domain/id-tokens';

interface KeyRow {
  kid: string;
  private_key_pem: string;
  public_jwk: PublicJwk;
}

const toKey = (row: KeyRow): IdTokenKey => ({
  kid: row.kid,
  privateKeyPem: row.private_key_pem,
  publicJwk: row.public_jwk,
});

/**
 * The keys that sign ID tokens, in PostgreSQL so that every replica signs with the same
 * one: the oldest key, created by the first replica that needs one (under an advisory
 * lock, so two replicas starting together do not make two). A replica remembers it.
 */
export class IdTokenKeyStore {
  private current: Promise<IdTokenKey> | undefined;

  constructor(private readonly pool: Pool) {}

  /** The key to sign with (created on first use). */
  signingKey(): Promise<IdTokenKey> {
    this.current ??= this.loadOrCreate().catch((error: unknown) => {
      this.current = undefined;
      throw error;
    });
    return this.current;
  }

  /** Every published key's public half, oldest first (created when there is none yet). */
  async publicKeys(): Promise<PublicJwk[]> {
    await this.signingKey();
    const { rows } = await this.pool.query<KeyRow>(
      `SELECT kid, private_key_pem, public_jwk FROM "oauth"."id_token_key" ORDER BY created_at, kid`,
    );
    return rows.map((row) => row.public_jwk);
  }

  private async loadOrCreate(): Promise<IdTokenKey> {
    return withTransaction(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('oauth:id_token_key', 0))`);
      const { rows } = await client.query<KeyRow>(
        `SELECT kid, private_key_pem, public_jwk FROM "oauth"."id_token_key"
          ORDER BY created_at, kid LIMIT 1`,
      );
      if (rows[0]) return toKey(rows[0]);
      const key = generateIdTokenKey();
      await client.query(
        `INSERT INTO "oauth"."id_token_key" (kid, private_key_pem, public_jwk) VALUES ($1, $2, $3)`,
        [key.kid, key.privateKeyPem, JSON.stringify(key.publicJwk)],
      );
      return key;
    });
  }
}
