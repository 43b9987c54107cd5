import { ChannelType } from '../domain/channel-types';
import { UnknownGuildError } from '../domain/permissions-errors';
import {
  renderVoiceState,
  toVoiceStartTime,
  type VoiceStateRecord,
  type VoiceStateRequest,
} from '../domain/voice/voice-rules';
import type { PrismaClient } from '../generated/prisma/client';
import { lockGuild } from './lock-guild';
import type { TransactionClient } from './transaction-client';
import { writeOutboxEvent } from './write-outbox-event';

/** A voice channel's ephemeral data, as Channel Info shows it. */
export interface VoiceChannelInfo {
  id: string;
  status: string | null;
  voice_start_time: number | null;
}

/**
 * Voice: who is connected where (op 4), voice channel statuses, and the start of each
 * channel's voice session. Each change writes its events (VOICE_STATE_UPDATE,
 * VOICE_CHANNEL_STATUS_UPDATE, VOICE_CHANNEL_START_TIME_UPDATE) in its transaction.
 */
export class VoiceStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** The member's voice state in the guild, if connected. */
  async findVoiceState(guildId: string, userId: string): Promise<VoiceStateRecord | undefined> {
    const row = await this.prisma.voiceState.findUnique({
      where: { guildId_userId: { guildId: BigInt(guildId), userId: BigInt(userId) } },
    });
    return row
      ? {
          guildId,
          userId,
          channelId: row.channelId.toString(),
          sessionId: row.sessionId,
          selfMute: row.selfMute,
          selfDeaf: row.selfDeaf,
        }
      : undefined;
  }

  /**
   * Records a join, move or leave (the caller checked the channel and CONNECT), under the
   * guild's lock so that a channel's session start is decided once: the first member of an
   * empty channel starts it, the last one leaving ends it (and clears the channel's status).
   * False when nothing happened (leaving while not connected).
   */
  async updateVoiceState(request: VoiceStateRequest): Promise<boolean> {
    const guildId = BigInt(request.guildId);
    const userId = BigInt(request.userId);
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockGuild(tx, request.guildId))) throw new UnknownGuildError();
      const key = { guildId_userId: { guildId, userId } };
      const previous = await tx.voiceState.findUnique({ where: key });
      if (request.channelId === null) {
        if (!previous) return false;
        await tx.voiceState.delete({ where: key });
      } else {
        const data = {
          channelId: BigInt(request.channelId),
          sessionId: request.sessionId,
          selfMute: request.selfMute,
          selfDeaf: request.selfDeaf,
        };
        await tx.voiceState.upsert({ where: key, create: { guildId, userId, ...data }, update: data });
      }
      const touched = new Set<bigint>();
      if (previous) touched.add(previous.channelId);
      if (request.channelId !== null) touched.add(BigInt(request.channelId));
      await writeOutboxEvent(tx, 'voice_state.updated', renderVoiceState(request));
      for (const channelId of touched) await this.settleSession(tx, request.guildId, channelId);
      return true;
    });
  }

  /**
   * Sets (or, with null, clears) a voice channel's status; the caller checked the
   * permissions. Announces VOICE_CHANNEL_STATUS_UPDATE.
   */
  async setVoiceStatus(guildId: string, channelId: string, status: string | null): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.channel.update({ where: { id: BigInt(channelId) }, data: { voiceStatus: status } });
      await writeOutboxEvent(tx, 'voice_channel.status_updated', {
        id: channelId,
        guild_id: guildId,
        status,
      });
    });
  }

  /** The status and session start of every voice and stage channel of the guild, by position. */
  async listVoiceChannelInfo(guildId: string): Promise<VoiceChannelInfo[]> {
    const rows = await this.prisma.channel.findMany({
      where: {
        guildId: BigInt(guildId),
        type: { in: [ChannelType.GUILD_VOICE, ChannelType.GUILD_STAGE_VOICE] },
      },
      select: { id: true, voiceStatus: true, voiceStartTime: true },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
    return rows.map((row) => ({
      id: row.id.toString(),
      status: row.voiceStatus,
      voice_start_time: toVoiceStartTime(row.voiceStartTime),
    }));
  }

  /**
   * Starts or ends a channel's voice session after a member came or went: a start time
   * while someone is connected, none (and no status) once the channel is empty.
   */
  private async settleSession(tx: TransactionClient, guildId: string, channelId: bigint): Promise<void> {
    const channel = await tx.channel.findUnique({
      where: { id: channelId },
      select: { voiceStartTime: true, voiceStatus: true },
    });
    if (!channel) return;
    const connected = await tx.voiceState.count({ where: { channelId } });
    const id = channelId.toString();
    if (connected > 0 && channel.voiceStartTime === null) {
      const now = new Date();
      await tx.channel.update({ where: { id: channelId }, data: { voiceStartTime: now } });
      await writeOutboxEvent(tx, 'voice_channel.start_time_updated', {
        id,
        guild_id: guildId,
        voice_start_time: toVoiceStartTime(now),
      });
    } else if (connected === 0 && channel.voiceStartTime !== null) {
      await tx.channel.update({
        where: { id: channelId },
        data: { voiceStartTime: null, voiceStatus: null },
      });
      await writeOutboxEvent(tx, 'voice_channel.start_time_updated', {
        id,
        guild_id: guildId,
        voice_start_time: null,
      });
      if (channel.voiceStatus !== null) {
        await writeOutboxEvent(tx, 'voice_channel.status_updated', {
          id,
          guild_id: guildId,
          status: null,
        });
      }
    }
  }
}
