import { ChannelType, isThreadType } from '../channel-types';
import type { Channel, Overwrite } from '../guild-model';

/** A permission overwrite as the API shows it: bit sets as decimal strings. */
export interface OverwriteJson {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

/** A guild channel or thread as the API shows it. */
export type ChannelJson = { id: string; type: number; guild_id: string; name: string } & Record<
  string,
  unknown
>;

/** Renders an overwrite. */
export function renderOverwrite(overwrite: Overwrite): OverwriteJson {
  return {
    id: overwrite.id,
    type: overwrite.type,
    allow: overwrite.allow.toString(),
    deny: overwrite.deny.toString(),
  };
}

const VOICE_TYPES: readonly number[] = [ChannelType.GUILD_VOICE, ChannelType.GUILD_STAGE_VOICE];

/**
 * Renders a channel like the API's channel object (D:resources/channel.mdx). A thread has
 * no position or overwrites but thread metadata and an owner; ACS creates threads on the
 * guild owner's behalf, so `threadOwnerId` is the guild owner.
 */
export function renderChannel(channel: Channel, threadOwnerId: string): ChannelJson {
  const common = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    parent_id: channel.parentId,
    flags: 0,
  };
  if (isThreadType(channel.type)) {
    const createdAt = channel.createdAt.toISOString();
    return {
      ...common,
      owner_id: threadOwnerId,
      last_message_id: null,
      rate_limit_per_user: 0,
      message_count: 0,
      member_count: 0,
      total_message_sent: 0,
      thread_metadata: {
        archived: false,
        auto_archive_duration: 4320,
        archive_timestamp: createdAt,
        locked: false,
        create_timestamp: createdAt,
        ...(channel.type === ChannelType.PRIVATE_THREAD ? { invitable: true } : {}),
      },
    };
  }
  const json: ChannelJson = {
    ...common,
    position: channel.position,
    permission_overwrites: channel.overwrites.map(renderOverwrite),
  };
  if (channel.type === ChannelType.GUILD_CATEGORY) return json;
  if (VOICE_TYPES.includes(channel.type)) {
    return {
      ...json,
      nsfw: false,
      last_message_id: null,
      rate_limit_per_user: 0,
      bitrate: 64000,
      user_limit: 0,
      rtc_region: null,
    };
  }
  return { ...json, nsfw: false, topic: null, last_message_id: null, rate_limit_per_user: 0 };
}
