// Channel types a guild can hold (D:resources/channel.mdx §Channel Types); DMs (1, 3) are
// not guild channels.

/** Guild channel type values. */
export const ChannelType = {
  GUILD_TEXT: 0,
  GUILD_VOICE: 2,
  GUILD_CATEGORY: 4,
  GUILD_ANNOUNCEMENT: 5,
  ANNOUNCEMENT_THREAD: 10,
  PUBLIC_THREAD: 11,
  PRIVATE_THREAD: 12,
  GUILD_STAGE_VOICE: 13,
  GUILD_DIRECTORY: 14,
  GUILD_FORUM: 15,
  GUILD_MEDIA: 16,
} as const;
export type ChannelType = (typeof ChannelType)[keyof typeof ChannelType];

/** Every type CreateChannel accepts, in the order error messages list them. */
export const GUILD_CHANNEL_TYPES: readonly ChannelType[] = Object.values(ChannelType);

/**
 * The parent types each thread type may live in: announcement threads in announcement
 * channels, public threads in text, forum and media channels, private threads in text
 * channels (D:topics/threads.mdx).
 */
export const THREAD_PARENT_TYPES: ReadonlyMap<ChannelType, readonly ChannelType[]> = new Map([
  [ChannelType.ANNOUNCEMENT_THREAD, [ChannelType.GUILD_ANNOUNCEMENT]],
  [ChannelType.PUBLIC_THREAD, [ChannelType.GUILD_TEXT, ChannelType.GUILD_FORUM, ChannelType.GUILD_MEDIA]],
  [ChannelType.PRIVATE_THREAD, [ChannelType.GUILD_TEXT]],
]);

/** Whether a channel type is a thread (it takes its permissions from its parent). */
export function isThreadType(type: number): boolean {
  return THREAD_PARENT_TYPES.has(type as ChannelType);
}

/** Whether a value is a guild channel type. */
export function isGuildChannelType(value: number): value is ChannelType {
  return (GUILD_CHANNEL_TYPES as readonly number[]).includes(value);
}
