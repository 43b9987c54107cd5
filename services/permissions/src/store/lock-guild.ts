import { Prisma } from '../generated/prisma/client';
import type { TransactionClient } from './transaction-client';

/**
 * Locks a guild's row for the rest of the transaction, so that writes that count the
 * guild's roles or channels against a limit are serialized; false when there is no guild.
 */
export async function lockGuild(tx: TransactionClient, guildId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>(
    Prisma.sql`SELECT id FROM "permissions"."guild" WHERE id = ${BigInt(guildId)} FOR UPDATE`,
  );
  return rows.length > 0;
}
