import { DmChannelType, type DmChannel } from '../domain/dm/dm-channel-model';
import { Prisma } from '../generated/prisma/client';
import type { SqlClient } from './select-channels';

interface DmChannelRow {
  id: bigint;
  type: number;
  owner_id: bigint | null;
  application_id: bigint | null;
  recipient_ids: string[];
}

/** A DM or group DM channel with its recipients (by ascending id), in one statement; null when there is none. */
export async function selectDmChannel(db: SqlClient, channelId: string): Promise<DmChannel | null> {
  const rows = await db.$queryRaw<DmChannelRow[]>(Prisma.sql`
    SELECT d.id, d.type, d.owner_id, d.application_id,
           ARRAY(SELECT r.user_id::text FROM "permissions"."dm_recipient" r
                  WHERE r.channel_id = d.id ORDER BY r.user_id) AS recipient_ids
      FROM "permissions"."dm_channel" d
     WHERE d.id = ${BigInt(channelId)}`);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id.toString(),
    type: row.type === DmChannelType.GROUP_DM ? DmChannelType.GROUP_DM : DmChannelType.DM,
    ownerId: row.owner_id === null ? null : row.owner_id.toString(),
    applicationId: row.application_id === null ? null : row.application_id.toString(),
    recipientIds: row.recipient_ids,
  };
}
