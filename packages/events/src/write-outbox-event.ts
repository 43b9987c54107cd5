import { createEvent } from './create-event';
import type { EventName, EventPayload } from './event-catalog';
import { writeOutboxRows, type SqlRunner } from './write-outbox-rows';

/**
 * What a Prisma transaction offers to run a statement of its own (oauth's and permissions'
 * generated clients): the outbox is written with plain SQL, as every service writes it.
 */
export interface PrismaOutboxTransaction {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<unknown>;
}

/** A Prisma transaction as the runner of one plain-SQL statement, on the transaction's connection. */
export function prismaSqlRunner(tx: PrismaOutboxTransaction): SqlRunner {
  return { query: async (text, values = []) => tx.$executeRawUnsafe(text, ...values) };
}

/**
 * Writes the event `name` of the catalog to the outbox of `schema` inside the Prisma
 * transaction `tx` that makes the change it announces, through `writeOutboxRows` (the one
 * outbox writer: ordered, with the relay's wake-up, delivered only if `tx` commits).
 */
export async function writePrismaOutboxEvent<N extends EventName>(
  tx: PrismaOutboxTransaction,
  schema: string,
  name: N,
  data: EventPayload<N>,
): Promise<void> {
  await writeOutboxRows(prismaSqlRunner(tx), schema, [createEvent(name, data)]);
}
