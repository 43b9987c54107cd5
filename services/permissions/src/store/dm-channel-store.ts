import type { SnowflakeGenerator } from '@acs/snowflake';
import { DmChannelType, type DmChannel } from '../domain/dm/dm-channel-model';
import type { PrismaClient } from '../generated/prisma/client';
import { selectDmChannel } from './select-dm-channel';

/** The lower and the higher of two ids: a DM's key, whichever of its users opens it. */
function pairOf(a: bigint, b: bigint): [bigint, bigint] {
  return a < b ? [a, b] : [b, a];
}

/** DM and group DM channels with their recipients. */
export class DmChannelStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly snowflakes: SnowflakeGenerator,
  ) {}

  /**
   * The DM of two users: created with its two recipients in one transaction on the first
   * call, the same channel on every later one, whichever user asks. Two first calls at once
   * make one channel: the unique (user_low, user_high) key makes the second insert wait for
   * the first to commit and then do nothing, and it reads the committed channel.
   */
  async openDm(userId: string, recipientId: string): Promise<DmChannel> {
    const [low, high] = pairOf(BigInt(userId), BigInt(recipientId));
    const recipientIds = [low.toString(), high.toString()];
    return this.prisma.$transaction(async (tx) => {
      const id = BigInt(this.snowflakes.next());
      const { count } = await tx.dmChannel.createMany({
        data: [{ id, type: DmChannelType.DM, userLow: low, userHigh: high }],
        skipDuplicates: true,
      });
      if (count === 1) {
        await tx.dmRecipient.createMany({
          data: [low, high].map((user) => ({ channelId: id, userId: user })),
        });
        return {
          id: id.toString(),
          type: DmChannelType.DM,
          ownerId: null,
          applicationId: null,
          recipientIds,
        };
      }
      const existing = await tx.dmChannel.findFirstOrThrow({
        where: { userLow: low, userHigh: high },
        select: { id: true },
      });
      return {
        id: existing.id.toString(),
        type: DmChannelType.DM,
        ownerId: null,
        applicationId: null,
        recipientIds,
      };
    });
  }

  /**
   * A new group DM owned by `ownerId`, holding the owner and `recipientIds` (one nested
   * write: one transaction); `applicationId` when an application's bot opens it.
   */
  async createGroupDm(
    ownerId: string,
    recipientIds: readonly string[],
    applicationId: string | null = null,
  ): Promise<DmChannel> {
    const id = BigInt(this.snowflakes.next());
    const users = [ownerId, ...recipientIds].map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    await this.prisma.dmChannel.create({
      data: {
        id,
        type: DmChannelType.GROUP_DM,
        ownerId: BigInt(ownerId),
        applicationId: applicationId === null ? null : BigInt(applicationId),
        recipients: { create: users.map((userId) => ({ userId })) },
      },
    });
    return {
      id: id.toString(),
      type: DmChannelType.GROUP_DM,
      ownerId,
      applicationId,
      recipientIds: users.map(String),
    };
  }

  /** A DM or group DM channel with its recipients (by ascending id), in one statement; null when there is none. */
  getDmChannel(channelId: string): Promise<DmChannel | null> {
    return selectDmChannel(this.prisma, channelId);
  }
}
