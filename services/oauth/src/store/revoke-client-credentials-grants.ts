import type { Prisma } from '../generated/prisma/client';
import { revokeGrantTokens } from './revoke-grant-tokens';

/**
 * Revokes every live client-credentials grant of the application with its tokens (they
 * act as its owner); the number of grants revoked.
 */
export async function revokeClientCredentialsGrants(
  tx: Prisma.TransactionClient,
  applicationId: bigint,
  now: Date,
): Promise<number> {
  const grants = await tx.$queryRaw<{ id: bigint }[]>`
    UPDATE "oauth"."token_grant" SET revoked_at = ${now}
     WHERE application_id = ${applicationId} AND kind = 'client_credentials' AND revoked_at IS NULL
     RETURNING id`;
  if (grants.length > 0)
    await revokeGrantTokens(
      tx,
      grants.map((g) => g.id),
      now,
    );
  return grants.length;
}
