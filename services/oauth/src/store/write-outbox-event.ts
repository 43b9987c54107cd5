import { writePrismaOutboxEvent, type EventNameOf, type EventPayload } from '@acs/events';
import type { Prisma } from '../generated/prisma/client';

/** This service's outbox schema, and the first token of its event names. */
const SERVICE = 'oauth';

/** The type of an oauth event: `application.authorized` for `oauth.application.authorized`. */
export type OAuthEventType = EventNameOf<typeof SERVICE> extends `${typeof SERVICE}.${infer T}` ? T : never;

/**
 * Writes the event `oauth.<type>` of the catalog to the outbox inside the transaction `tx`
 * that makes the change it announces, and wakes the relay at commit (NOTIFY is delivered
 * only if `tx` commits).
 */
export function writeOutboxEvent<T extends OAuthEventType>(
  tx: Prisma.TransactionClient,
  type: T,
  data: EventPayload<`${typeof SERVICE}.${T}`>,
): Promise<void> {
  return writePrismaOutboxEvent(tx, SERVICE, `${SERVICE}.${type}`, data);
}
