import { createOutboxRow, outboxNotifySql } from '@acs/events';
import type { Prisma } from '../generated/prisma/client';

/** This service's name in event subjects (`acs.oauth.<type>`) and its outbox schema. */
const SERVICE = 'oauth';

/**
 * Writes an event to the outbox inside the transaction `tx` that makes the change it
 * announces, and wakes the relay at commit (NOTIFY is delivered only if `tx` commits).
 */
export async function writeOutboxEvent(
  tx: Prisma.TransactionClient,
  type: string,
  data: object,
): Promise<void> {
  const row = createOutboxRow(SERVICE, type, data);
  await tx.outboxEvent.create({
    data: { id: row.id, subject: row.subject, payload: row.payload as unknown as Prisma.InputJsonValue },
  });
  await tx.$executeRawUnsafe(outboxNotifySql(SERVICE));
}
