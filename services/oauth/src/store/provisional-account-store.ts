import type { Pool, PoolClient } from 'pg';
import { createEvent, writeOutboxRows } from '@acs/events';
import { withTransaction } from '@acs/service-kit';
import type { Digest } from '../domain/hash-secret';
import {
  planProvisionalAccount,
  PROVISIONAL_GRANT_KIND,
  PROVISIONAL_SCOPES,
  requireOwnProvisionalAccount,
  type FoundIdentity,
} from '../domain/provisional-accounts';

/** Whose identity a token is asked for, and the name a new account gets. */
export interface IdentityRequest {
  applicationId: string;
  authType: string;
  externalUserId: string;
  displayName: string | null;
  /** The OIDC issuer of an OIDC identity (named by a 530010); null otherwise. */
  providerId?: string | null;
}

/** The ids and the token a call may write (a new account's id is used only when one is created). */
export interface ProvisionalIssue {
  newUserId: string;
  grantId: string;
  tokenHash: Digest;
  expiresAt: Date;
}

/**
 * Provisional accounts and their tokens, in plain SQL: one transaction finds the identity
 * (serialized per identity by an advisory lock, so that concurrent first calls create one
 * account), asks the planner what to do, and writes the account, the identity, the grant
 * and its access token.
 */
export class ProvisionalAccountStore {
  constructor(private readonly pool: Pool) {}

  /** The token's account: the identity's, created when new; throws the planner's 530010. */
  async issueToken(request: IdentityRequest, issue: ProvisionalIssue): Promise<{ userId: string }> {
    return withTransaction(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `provisional:${request.applicationId}:${request.authType}:${request.externalUserId}`,
      ]);
      const found = await findIdentity(client, request);
      const plan = planProvisionalAccount(found, request.applicationId, issue.newUserId, request.displayName);
      if (plan.kind === 'create') {
        const { user } = plan;
        await client.query(
          `INSERT INTO "oauth"."user" (id, username, global_name, provisional_application_id)
           VALUES ($1, $2, $3, $4)`,
          [user.id, user.username, user.globalName, user.applicationId],
        );
        await client.query(
          `INSERT INTO "oauth"."external_identity" (application_id, auth_type, external_user_id, user_id)
           VALUES ($1, $2, $3, $4)`,
          [request.applicationId, request.authType, request.externalUserId, user.id],
        );
      }
      await client.query(
        `INSERT INTO "oauth"."token_grant" (id, application_id, user_id, kind, scopes) VALUES ($1, $2, $3, $4, $5)`,
        [issue.grantId, request.applicationId, plan.userId, PROVISIONAL_GRANT_KIND, PROVISIONAL_SCOPES],
      );
      await client.query(
        `INSERT INTO "oauth"."access_token" (token_hash, application_id, user_id, scopes, expires_at, grant_id)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          Buffer.from(issue.tokenHash),
          request.applicationId,
          plan.userId,
          PROVISIONAL_SCOPES,
          issue.expiresAt,
          issue.grantId,
        ],
      );
      return { userId: plan.userId };
    });
  }

  /** Renames a provisional account `applicationId` owns (announcing `oauth.user.updated`); 403 / 50001 for any other user. */
  async rename(userId: string, applicationId: string, globalName: string): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ owner: string | null }>(
        `SELECT provisional_application_id::text AS owner FROM "oauth"."user" WHERE id = $1 FOR UPDATE`,
        [userId],
      );
      requireOwnProvisionalAccount(rows[0]?.owner, applicationId);
      await client.query(`UPDATE "oauth"."user" SET global_name = $2 WHERE id = $1`, [userId, globalName]);
      // USER_UPDATE to the player's sessions (UD: the rename fires it).
      await writeOutboxRows(client, 'oauth', [createEvent('oauth.user.updated', { user_id: userId })]);
    });
  }
}

async function findIdentity(
  client: PoolClient,
  request: IdentityRequest,
): Promise<FoundIdentity | undefined> {
  const { rows } = await client.query<{ user_id: string; provisional_application_id: string | null }>(
    `SELECT i.user_id::text AS user_id, u.provisional_application_id::text AS provisional_application_id
       FROM "oauth"."external_identity" i
       JOIN "oauth"."user" u ON u.id = i.user_id
      WHERE i.application_id = $1 AND i.auth_type = $2 AND i.external_user_id = $3`,
    [request.applicationId, request.authType, request.externalUserId],
  );
  const row = rows[0];
  return (
    row && {
      userId: row.user_id,
      provisionalApplicationId: row.provisional_application_id,
      authType: request.authType,
      externalUserId: request.externalUserId,
      providerId: request.providerId ?? null,
    }
  );
}
