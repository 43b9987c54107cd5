import type { Channel } from '../domain/guild-model';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { toChannel } from './to-domain';
import type { TransactionClient } from './transaction-client';

// Channels are read in SQL, one statement each: the generated client would take a second
// round trip for the overwrites.

/** A channel row as `listChannels` reads it: overwrites aggregated, bit sets as text so JSON keeps them exact. */
interface ChannelRow {
  id: bigint;
  guild_id: bigint;
  type: number;
  name: string;
  parent_id: bigint | null;
  position: number;
  created_at: Date;
  overwrites: { id: string; type: number; allow: string; deny: string }[];
}

/** What runs the raw statements: the client, or a transaction's. */
export type SqlClient = Pick<PrismaClient, '$queryRaw'> | TransactionClient;

async function selectChannels(client: SqlClient, where: Prisma.Sql): Promise<Channel[]> {
  const rows = await client.$queryRaw<ChannelRow[]>(Prisma.sql`
      SELECT c.id, c.guild_id, c.type, c.name, c.parent_id, c.position, c.created_at,
             COALESCE((SELECT json_agg(json_build_object('id', o.target_id::text, 'type', o.type,
                                                         'allow', o.allow::text, 'deny', o.deny::text)
                                       ORDER BY o.target_id)
                         FROM "permissions"."permission_overwrite" o WHERE o.channel_id = c.id), '[]'::json)
               AS overwrites
        FROM "permissions"."channel" c
       WHERE ${where}
       ORDER BY c.position, c.id`);
  return rows.map((row) =>
    toChannel({
      id: row.id,
      guildId: row.guild_id,
      type: row.type,
      name: row.name,
      parentId: row.parent_id,
      position: row.position,
      createdAt: row.created_at,
      overwrites: row.overwrites.map((o) => ({
        targetId: BigInt(o.id),
        type: o.type,
        allow: BigInt(o.allow),
        deny: BigInt(o.deny),
      })),
    }),
  );
}

/** Every channel and thread of a guild with its overwrites, by position then id; none for an unknown guild. */
export function selectGuildChannels(client: SqlClient, guildId: string): Promise<Channel[]> {
  return selectChannels(client, Prisma.sql`c.guild_id = ${BigInt(guildId)}`);
}

/** One guild channel or thread with its overwrites; undefined when there is none. */
export async function selectChannel(client: SqlClient, channelId: string): Promise<Channel | undefined> {
  const [channel] = await selectChannels(client, Prisma.sql`c.id = ${BigInt(channelId)}`);
  return channel;
}
