import type { IssuedTokens } from '../domain/issue-oauth2-tokens';
import type { Prisma } from '../generated/prisma/client';

/** A grant kind: how the authorization came about. */
export type GrantKind = 'authorization_code' | 'client_credentials';

// Grants and tokens are written through Prisma; the conditional updates and locks of
// grant-store.ts are plain SQL.

/** Creates a grant with its access (and refresh) token. */
export async function createGrant(
  tx: Prisma.TransactionClient,
  grant: {
    id: bigint;
    applicationId: bigint;
    userId: bigint | null;
    kind: GrantKind;
    scopes: string[];
    tokens: IssuedTokens;
  },
): Promise<void> {
  await tx.tokenGrant.create({
    data: {
      id: grant.id,
      applicationId: grant.applicationId,
      userId: grant.userId,
      kind: grant.kind,
      scopes: grant.scopes,
    },
  });
  await insertGrantTokens(tx, grant.id, grant.applicationId, grant.userId, grant.scopes, grant.tokens);
}

/** Stores the access token (and the refresh token, when issued) of a grant. */
export async function insertGrantTokens(
  tx: Prisma.TransactionClient,
  grantId: bigint,
  applicationId: bigint,
  userId: bigint | null,
  scopes: string[],
  tokens: IssuedTokens,
): Promise<void> {
  const { stored } = tokens;
  await tx.accessToken.create({
    data: {
      tokenHash: stored.accessTokenHash,
      applicationId,
      userId,
      scopes,
      expiresAt: stored.accessExpiresAt,
      grantId,
    },
  });
  if (stored.refreshTokenHash) {
    await tx.refreshToken.create({
      data: {
        tokenHash: stored.refreshTokenHash,
        grantId,
        applicationId,
        expiresAt: stored.refreshExpiresAt,
      },
    });
  }
}
