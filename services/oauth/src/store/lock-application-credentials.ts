import type { Prisma } from '../generated/prisma/client';

/** What an application update compares against: the credentials its resolved tokens carry. */
export interface ApplicationCredentials {
  owner_id: bigint | null;
  flags: bigint;
  public_client: boolean;
}

/**
 * The application's owner, flags and public-client switch, its row locked (FOR NO KEY
 * UPDATE: client-credentials issuing waits with FOR SHARE, then sees the new owner and
 * whether the application became a public client); undefined when unknown. Plain SQL:
 * Prisma has no row locks.
 */
export async function lockApplicationCredentials(
  tx: Prisma.TransactionClient,
  id: bigint,
): Promise<ApplicationCredentials | undefined> {
  const [current] = await tx.$queryRaw<ApplicationCredentials[]>`
    SELECT owner_id, flags, public_client FROM "oauth"."application" WHERE id = ${id} FOR NO KEY UPDATE`;
  return current;
}
