import type { SnowflakeGenerator } from '@acs/snowflake';
import { isThreadType, THREAD_PARENT_TYPES } from '../domain/channel-types';
import { checkChannelReferences } from '../domain/check-channel-references';
import type { Channel } from '../domain/guild-model';
import { MAX_CHANNELS_PER_GUILD } from '../domain/limits';
import { MaxChannelsError, UnknownGuildError } from '../domain/permissions-errors';
import type { CreateChannelInput } from '../domain/validate-create-channel';
import type { PrismaClient } from '../generated/prisma/client';
import { lockGuild } from './lock-guild';
import { selectChannel, selectGuildChannels, type SqlClient } from './select-channels';
import { renderChannel } from '../domain/render/render-channel';
import { toChannel } from './to-domain';
import { writeOutboxEvent } from './write-outbox-event';

/** A new channel and the owner of its guild (who owns threads created through the admin API). */
export interface CreatedChannel {
  channel: Channel;
  guildOwnerId: string;
}

const THREAD_TYPES = [...THREAD_PARENT_TYPES.keys()];

/** Guild channels, threads and their permission overwrites. */
export class ChannelStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly snowflakes: SnowflakeGenerator,
  ) {}

  /**
   * Creates a channel with its overwrites, after checking its parent and the roles its
   * overwrites name against the guild (50035). 404 10004 for an unknown guild; 400 30013
   * past 500 channels (threads do not count). A new channel goes below the others.
   */
  async createChannel(guildId: string, input: CreateChannelInput): Promise<CreatedChannel> {
    const guild = BigInt(guildId);
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockGuild(tx, guildId))) throw new UnknownGuildError();
      const roleTargets = input.overwrites.filter((o) => o.type === 0).map((o) => BigInt(o.id));
      const owner = await tx.guild.findUniqueOrThrow({ where: { id: guild }, select: { ownerId: true } });
      const parent =
        input.parentId === null
          ? null
          : await tx.channel.findFirst({
              where: { id: BigInt(input.parentId), guildId: guild },
              select: { type: true },
            });
      const roles =
        roleTargets.length === 0
          ? []
          : await tx.role.findMany({
              where: { guildId: guild, id: { in: roleTargets } },
              select: { id: true },
            });
      checkChannelReferences(input, { parent, roleIds: new Set(roles.map((r) => r.id.toString())) });

      let position = 0;
      if (!isThreadType(input.type)) {
        position = await tx.channel.count({ where: { guildId: guild, type: { notIn: THREAD_TYPES } } });
        if (position >= MAX_CHANNELS_PER_GUILD) throw new MaxChannelsError();
      }
      const row = await tx.channel.create({
        data: {
          id: BigInt(this.snowflakes.next()),
          guildId: guild,
          type: input.type,
          name: input.name,
          parentId: input.parentId === null ? null : BigInt(input.parentId),
          position,
          overwrites: {
            create: input.overwrites.map((o) => ({
              targetId: BigInt(o.id),
              type: o.type,
              allow: o.allow,
              deny: o.deny,
            })),
          },
        },
        include: { overwrites: { orderBy: { targetId: 'asc' } } },
      });
      const channel = toChannel(row);
      const guildOwnerId = owner.ownerId.toString();
      await writeOutboxEvent(tx, 'channel.created', {
        guild_id: guildId,
        channel: renderChannel(channel, guildOwnerId),
      });
      return { channel, guildOwnerId };
    });
  }

  /**
   * Every channel and thread of a guild with its overwrites (by target id), ordered by
   * position then id, in one statement: the generated client would take a second round
   * trip for the overwrites. An unknown guild has none.
   */
  async listChannels(guildId: string, client: SqlClient = this.prisma): Promise<Channel[]> {
    return selectGuildChannels(client, guildId);
  }

  /** One guild channel or thread, with its overwrites; undefined when there is none. */
  async getChannel(channelId: string, client: SqlClient = this.prisma): Promise<Channel | undefined> {
    return selectChannel(client, channelId);
  }
}
