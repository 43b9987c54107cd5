import type { Pool } from 'pg';
import { withTransaction } from '@acs/service-kit';
import {
  requireIdentityProvider,
  type ExchangeFacts,
  type TestTokenRecord,
} from '../domain/external-credentials';
import type { Digest } from '../domain/hash-secret';
import type { OidcProvider } from '../domain/oidc-providers';
import { UnknownApplicationError } from '../domain/oauth-errors';

/** A test issuer's token to store. */
export interface NewTestToken {
  applicationId: string;
  externalAuthType: string;
  externalUserId: string;
  tokenHash: Digest;
  expiresAt: Date;
}

const toBuffer = (digest: Digest) => Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);

/**
 * Identity providers of applications and the tokens their test issuers mint, in plain SQL;
 * and the facts an External Credentials Exchange is checked against (the planner is
 * domain/external-credentials.ts's planExchange).
 */
export class IdentityProviderStore {
  constructor(private readonly pool: Pool) {}

  /** Turns on the test issuer of `authType` for the application (again: no change); 404 / 10002 for no application. */
  async putTestIssuer(applicationId: string, authType: string): Promise<void> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO "oauth"."identity_provider" (application_id, auth_type)
       SELECT id, $2 FROM "oauth"."application" WHERE id = $1
       ON CONFLICT (application_id, auth_type)
       DO UPDATE SET issuer = NULL, audience = NULL, updated_at = now()`,
      [applicationId, authType],
    );
    if (rowCount === 0) throw new UnknownApplicationError();
  }

  /** Sets the application's OIDC provider (replacing the earlier one); 404 / 10002 for no application. */
  async putOidcProvider(applicationId: string, provider: OidcProvider): Promise<void> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO "oauth"."identity_provider" (application_id, auth_type, issuer, audience)
       SELECT id, 'OIDC', $2, $3 FROM "oauth"."application" WHERE id = $1
       ON CONFLICT (application_id, auth_type)
       DO UPDATE SET issuer = EXCLUDED.issuer, audience = EXCLUDED.audience, updated_at = now()`,
      [applicationId, provider.issuer, provider.audience],
    );
    if (rowCount === 0) throw new UnknownApplicationError();
  }

  /** The application's OIDC provider, if it has one. */
  async readOidcProvider(applicationId: string): Promise<OidcProvider | undefined> {
    const { rows } = await this.pool.query<{ issuer: string; audience: string | null }>(
      `SELECT issuer, audience FROM "oauth"."identity_provider"
        WHERE application_id = $1 AND auth_type = 'OIDC' AND issuer IS NOT NULL`,
      [applicationId],
    );
    return rows[0];
  }

  /** Stores a minted token: 10002 for no application, 50035 when its type has no provider. */
  async createTestToken(token: NewTestToken): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ configured: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM "oauth"."identity_provider"
                         WHERE application_id = a.id AND auth_type = $2 AND issuer IS NULL) AS configured
           FROM "oauth"."application" a WHERE a.id = $1 FOR SHARE`,
        [token.applicationId, token.externalAuthType],
      );
      if (!rows[0]) throw new UnknownApplicationError();
      requireIdentityProvider(rows[0].configured);
      await client.query(
        `INSERT INTO "oauth"."test_external_token"
           (token_hash, application_id, auth_type, external_user_id, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [
          toBuffer(token.tokenHash),
          token.applicationId,
          token.externalAuthType,
          token.externalUserId,
          token.expiresAt,
        ],
      );
    });
  }

  /**
   * The client, its provider of `authType` (with the issuer and audience of an OIDC one),
   * and the test token with this digest.
   */
  async readExchangeFacts(clientId: string, authType: string, tokenHash: Digest): Promise<ExchangeFacts> {
    const clients = await this.pool.query<{
      client_secret_hash: Buffer;
      public_client: boolean;
      configured: boolean;
      issuer: string | null;
      audience: string | null;
    }>(
      `SELECT a.client_secret_hash, a.public_client, p.auth_type IS NOT NULL AS configured,
              p.issuer, p.audience
         FROM "oauth"."application" a
         LEFT JOIN "oauth"."identity_provider" p ON p.application_id = a.id AND p.auth_type = $2
        WHERE a.id = $1`,
      [clientId, authType],
    );
    const tokens = await this.pool.query<{
      application_id: string;
      auth_type: string;
      external_user_id: string;
      expires_at: Date;
    }>(
      `SELECT application_id::text AS application_id, auth_type, external_user_id, expires_at
         FROM "oauth"."test_external_token" WHERE token_hash = $1`,
      [toBuffer(tokenHash)],
    );
    const client = clients.rows[0];
    const token = tokens.rows[0];
    return {
      client: client && {
        clientSecretHash: new Uint8Array(client.client_secret_hash),
        publicClient: client.public_client,
      },
      providerConfigured: client?.configured ?? false,
      oidcProvider: client?.issuer ? { issuer: client.issuer, audience: client.audience } : undefined,
      token: token && toTestToken(token),
    };
  }
}

function toTestToken(row: {
  application_id: string;
  auth_type: string;
  external_user_id: string;
  expires_at: Date;
}): TestTokenRecord {
  return {
    applicationId: row.application_id,
    externalAuthType: row.auth_type,
    externalUserId: row.external_user_id,
    expiresAt: row.expires_at,
  };
}
