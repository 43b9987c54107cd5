import { createEvent, outboxNotifySql, type EventName, type EventPayload } from '@acs/events';
import { DB_SCHEMA } from '../config';
import type { Prisma } from '../generated/prisma/client';
import type { TransactionClient } from './transaction-client';

/** Writes an event of the catalog to the outbox in the caller's transaction and wakes the relay. */
export async function writeOutboxEvent<N extends EventName>(
  tx: TransactionClient,
  name: N,
  data: EventPayload<N>,
): Promise<void> {
  const event = createEvent(name, data);
  await tx.outboxEvent.create({
    data: {
      id: event.id,
      subject: event.subject,
      payload: event.payload as unknown as Prisma.InputJsonValue,
      traceContext: (event.traceContext ?? undefined) as Prisma.InputJsonValue | undefined,
    },
  });
  await tx.$executeRawUnsafe(outboxNotifySql(DB_SCHEMA));
}
