import { createEvent } from './create-event';
import type { EventName, EventPayload } from './event-catalog';
import { outboxNotifySql } from './outbox-sql';

/**
 * What a Prisma transaction of a service with the `outbox` model offers (oauth's and
 * permissions' generated clients): one row written, one raw statement run.
 */
export interface PrismaOutboxTransaction {
  outboxEvent: {
    create(args: {
      data: { id: string; subject: string; payload: never; traceContext?: never };
    }): PromiseLike<unknown>;
  };
  $executeRawUnsafe(query: string): PromiseLike<unknown>;
}

/**
 * Writes the event `name` of the catalog to the outbox of `schema` inside the Prisma
 * transaction `tx` that makes the change it announces, and wakes the relay at commit
 * (NOTIFY is delivered only if `tx` commits).
 */
export async function writePrismaOutboxEvent<N extends EventName>(
  tx: PrismaOutboxTransaction,
  schema: string,
  name: N,
  data: EventPayload<N>,
): Promise<void> {
  const row = createEvent(name, data);
  await tx.outboxEvent.create({
    data: {
      id: row.id,
      subject: row.subject,
      payload: row.payload as never,
      traceContext: (row.traceContext ?? undefined) as never,
    },
  });
  await tx.$executeRawUnsafe(outboxNotifySql(schema));
}
