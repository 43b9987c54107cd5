import { createEvent, outboxNotifySql, type EventNameOf, type EventPayload } from '@acs/events';
import type { Prisma } from '../generated/prisma/client';

/** This service's outbox schema, and the first token of its event names. */
const SERVICE = 'permissions';

/** The type of a permissions event: `member.added` for `permissions.member.added`. */
export type PermissionsEventType =
  EventNameOf<typeof SERVICE> extends `${typeof SERVICE}.${infer T}` ? T : never;

/**
 * Writes the event `permissions.<type>` of the catalog to the outbox inside the transaction
 * `tx` that makes the change it announces, and wakes the relay at commit (NOTIFY is
 * delivered only if `tx` commits).
 */
export async function writeOutboxEvent<T extends PermissionsEventType>(
  tx: Prisma.TransactionClient,
  type: T,
  data: EventPayload<`${typeof SERVICE}.${T}`>,
): Promise<void> {
  const row = createEvent(`${SERVICE}.${type}`, data);
  await tx.outboxEvent.create({
    data: {
      id: row.id,
      subject: row.subject,
      payload: row.payload as unknown as Prisma.InputJsonValue,
      traceContext: (row.traceContext ?? undefined) as Prisma.InputJsonValue | undefined,
    },
  });
  await tx.$executeRawUnsafe(outboxNotifySql(SERVICE));
}
