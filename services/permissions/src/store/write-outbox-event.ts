import { writePrismaOutboxEvent, type EventNameOf, type EventPayload } from '@acs/events';
import type { Prisma } from '../generated/prisma/client';

/** This service's outbox schema, and the first token of its event names. */
const SERVICE = 'permissions';

/** The type of a permissions event: `member.added` for `permissions.member.added`. */
export type PermissionsEventType =
  EventNameOf<typeof SERVICE> extends `${typeof SERVICE}.${infer T}` ? T : never;

/**
 * Writes the event `permissions.<type>` of the catalog to the outbox inside the transaction
 * `tx` that makes the change it announces (NOTIFY wakes the relay at commit).
 */
export function writeOutboxEvent<T extends PermissionsEventType>(
  tx: Prisma.TransactionClient,
  type: T,
  data: EventPayload<`${typeof SERVICE}.${T}`>,
): Promise<void> {
  return writePrismaOutboxEvent(tx, SERVICE, `${SERVICE}.${type}`, data);
}
