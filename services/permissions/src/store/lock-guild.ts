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

/**
 * Locks a guild's row like `lockGuild` and reads its owner and the database's clock (the
 * transaction's start), which a member change weighs timeouts against; null when there
 * is no guild.
 */
export async function lockGuildForMemberChange(
  tx: TransactionClient,
  guildId: string,
): Promise<{ ownerId: string; now: Date } | null> {
  const rows = await tx.$queryRaw<{ owner_id: bigint; now: Date }[]>(
    Prisma.sql`SELECT owner_id, now() AS now FROM "permissions"."guild" WHERE id = ${BigInt(guildId)} FOR UPDATE`,
  );
  const row = rows[0];
  return row ? { ownerId: row.owner_id.toString(), now: row.now } : null;
}
