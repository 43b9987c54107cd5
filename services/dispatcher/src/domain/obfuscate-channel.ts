/**
 * Channel obfuscation (Discord's change log, 2026 "Channel Obfuscation for Users and Bots";
 * discord-api-docs PR 8454): over the gateway, a guild channel the bot may not view is
 * still sent, with its metadata hidden. Bots opt in with the Identify capability below
 * while the change is being tested; sessions that do not ask for it see channels as before.
 */

/** Identify `capabilities` bit asking for obfuscated channels (discord-api-types `GatewayCapabilityBits.ChannelObfuscation`). */
export const CHANNEL_OBFUSCATION_CAPABILITY = 1 << 15;

/** Channel flag CHANNEL_OBFUSCATED (1 << 17). */
export const CHANNEL_OBFUSCATED = 1 << 17;

/** The name every obfuscated channel carries. */
export const HIDDEN_CHANNEL_NAME = '___hidden___';

/** VIEW_CHANNEL (1 << 10), which the one overwrite of an obfuscated channel denies. */
const VIEW_CHANNEL = '1024';

/**
 * Fields kept as they are: the channel's place in the guild (clients sort and nest by
 * them) and what a thread needs to be a thread. Our reading of "other sensitive fields
 * are nulled or reduced": everything that says what the channel is about or how busy it
 * is goes.
 */
const KEPT = new Set(['id', 'type', 'guild_id', 'parent_id', 'position', 'thread_metadata', 'owner_id']);

/** What each sensitive field becomes, when the channel has it. */
const REDUCED: Record<string, unknown> = {
  topic: null,
  last_message_id: null,
  last_pin_timestamp: null,
  nsfw: false,
  rate_limit_per_user: 0,
  icon_emoji: null,
  status: null,
  rtc_region: null,
  bitrate: 64000,
  user_limit: 0,
  message_count: 0,
  member_count: 0,
  total_message_sent: 0,
  available_tags: [],
  applied_tags: [],
  default_reaction_emoji: null,
  default_thread_rate_limit_per_user: 0,
};

/**
 * A channel as a session with the capability sees it when it may not view it: name
 * `___hidden___`, sensitive fields nulled or reduced, CHANNEL_OBFUSCATED added to `flags`,
 * and `permission_overwrites` holding one overwrite that denies VIEW_CHANNEL to
 * @everyone (whose id is the guild's). A thread has no overwrites and gets none.
 */
export function obfuscateChannel(channel: Record<string, unknown>, guildId: string): Record<string, unknown> {
  const hidden: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(channel)) {
    if (KEPT.has(key)) hidden[key] = value;
    else if (key in REDUCED) hidden[key] = REDUCED[key];
  }
  hidden.guild_id = guildId;
  hidden.name = HIDDEN_CHANNEL_NAME;
  hidden.flags = (typeof channel.flags === 'number' ? channel.flags : 0) | CHANNEL_OBFUSCATED;
  if ('permission_overwrites' in channel) {
    hidden.permission_overwrites = [{ id: guildId, type: 0, allow: '0', deny: VIEW_CHANNEL }];
  }
  return hidden;
}

/** The channel as the session shows it: itself when viewable, else obfuscated. */
export function channelForViewer(
  channel: Record<string, unknown>,
  guildId: string,
  visible: ReadonlySet<string>,
): Record<string, unknown> {
  return visible.has(String(channel.id)) ? channel : obfuscateChannel(channel, guildId);
}

/** A GUILD_CREATE's `d` with its `channels` and `threads` as a capable session sees them. */
export function obfuscateGuildCreate(
  d: Record<string, unknown>,
  visible: ReadonlySet<string>,
): Record<string, unknown> {
  const guildId = String(d.id);
  const list = (value: unknown) =>
    Array.isArray(value)
      ? (value as Record<string, unknown>[]).map((c) => channelForViewer(c, guildId, visible))
      : value;
  return { ...d, channels: list(d.channels), threads: list(d.threads) };
}
