import type { Prisma } from '../generated/prisma/client';

/** Revokes every live access and refresh token of the grants `grantIds`. */
export async function revokeGrantTokens(
  tx: Prisma.TransactionClient,
  grantIds: bigint[],
  now: Date,
): Promise<void> {
  await tx.$executeRaw`
    UPDATE "oauth"."access_token" SET revoked_at = ${now} WHERE grant_id = ANY(${grantIds}::bigint[]) AND revoked_at IS NULL`;
  await tx.$executeRaw`
    UPDATE "oauth"."refresh_token" SET revoked_at = ${now} WHERE grant_id = ANY(${grantIds}::bigint[]) AND revoked_at IS NULL`;
}
