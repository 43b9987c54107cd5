import type { ChannelInfoCommand } from './decide-inbound';

/** A voice channel's ephemeral data as permissions answers it. */
export interface VoiceChannelInfo {
  id: string;
  status: string | null;
  voice_start_time: number | null;
}

/**
 * CHANNEL_INFO's `d` (D:events/gateway-events.mdx §Channel Info): `guild_id` and, for each
 * channel, its `id` and the fields the request asked for (`status`, `voice_start_time`).
 */
export function channelInfoPayload(
  request: ChannelInfoCommand,
  channels: readonly VoiceChannelInfo[],
): Record<string, unknown> {
  return {
    guild_id: request.guildId,
    channels: channels.map((channel) => {
      const info: Record<string, unknown> = { id: channel.id };
      for (const field of request.fields) info[field] = channel[field];
      return info;
    }),
  };
}
