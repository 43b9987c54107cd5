import type { Prisma } from '../generated/prisma/client';
import { writeOutboxEvent } from './write-outbox-event';

/**
 * What changed about an application's principals: its `flags` (which every resolved token
 * carries), its `owner_id` (whose client-credentials tokens were revoked with it), its
 * `public_client` turned on (which revoked its client-credentials tokens), or
 * `tokens_revoked` (a client-credentials grant or a token without a grant).
 */
export type CredentialChange = 'flags' | 'owner_id' | 'public_client' | 'tokens_revoked';

/**
 * Announces, in the transaction `tx` that makes the change, that principals resolved for
 * the application before it must not be trusted (`application.credentials_changed`):
 * every api-gateway replica drops them from its cache.
 */
export async function announceCredentialsChange(
  tx: Prisma.TransactionClient,
  applicationId: bigint,
  changed: CredentialChange[],
): Promise<void> {
  await writeOutboxEvent(tx, 'application.credentials_changed', {
    application_id: applicationId.toString(),
    changed,
  });
}
