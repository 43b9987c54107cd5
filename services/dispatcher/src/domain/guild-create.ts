import type { MemberObject } from './guild-members-chunks';

/** What a GUILD_CREATE is built from. */
export interface GuildCreateSource {
  /** The guild object (with roles) as permissions' `GetGuild` answers it. */
  guild: Record<string, unknown>;
  /** Every channel and thread of the guild, as permissions renders them. */
  channels: readonly Record<string, unknown>[];
  /** The bot user, as READY's `user` shows it. */
  botUser: Record<string, unknown>;
  /** How many members the guild has, bots included (permissions' count; 0 when unknown). */
  memberCount?: number;
  /** When the bot joined the guild (ISO 8601). */
  joinedAt: string;
  /** The bot's own timeout, as permissions stores it (ISO 8601); null or absent when none. */
  viewerCommunicationDisabledUntil?: string | null;
  /**
   * True when this GUILD_CREATE fills in a guild READY listed as unavailable (after an
   * Identify); absent or false when the bot has just joined the guild.
   */
  fillsReadyGuild?: boolean;
  /**
   * For a session with GUILD_PRESENCES: the guild's members besides the bot and the
   * presences of those connected, as `guildCrowd` picks them; absent, only the bot is listed.
   */
  crowd?: GuildCrowd;
}

/** The members (besides the bot) and presences a GUILD_CREATE lists, and whether the guild is large. */
export interface GuildCrowd {
  members: readonly MemberObject[];
  presences: readonly Record<string, unknown>[];
  large: boolean;
  /** Every member of the guild, the bot and those not listed included. */
  memberCount: number;
}

/** Above this many members a GUILD_CREATE lists only the bot (D:events/gateway-events.mdx §Guild Create). */
export const CROWDED_GUILD_SIZE = 75_000;

/**
 * GUILD_CREATE's members and presences for a session with GUILD_PRESENCES
 * (D:events/gateway-events.mdx §Guild Create Extra Fields and §Request Guild Members): the
 * presences of the connected members; every member when the guild has at most
 * `largeThreshold` members, else (a `large` guild) only those online, with a role or with a
 * nickname. `members` are all the guild's members, the bot among them (left out of the
 * crowd: the payload lists it first itself); `presences` those of its connected members.
 */
export function guildCrowd(
  members: readonly MemberObject[],
  presences: readonly Record<string, unknown>[],
  botUserId: string,
  largeThreshold: number,
): GuildCrowd {
  const large = members.length > largeThreshold;
  const online = new Set(presences.map((p) => (p.user as { id?: unknown } | undefined)?.id));
  const listed = members.filter(
    (m) =>
      m.user.id !== botUserId &&
      (!large ||
        online.has(m.user.id) ||
        (Array.isArray(m.roles) && m.roles.length > 0) ||
        (typeof m.nick === 'string' && m.nick !== '')),
  );
  return { members: listed, presences, large, memberCount: members.length };
}

/** Thread types (D:resources/channel.mdx §Channel Types): GUILD_CREATE lists them apart. */
const THREAD_TYPES: readonly unknown[] = [10, 11, 12];

/**
 * GUILD_CREATE's `d` (D:events/gateway-events.mdx §Guild Create Extra Fields): the guild
 * object plus the extra fields. `unavailable: false` only when it fills in a guild of
 * READY: Discord omits the field for a guild just joined, and clients tell the two cases
 * apart by it (discord.py fires `on_guild_join` only without it, `on_guild_available`
 * with it). `channels` holds the guild's channels and `threads` its threads (ACS never
 * archives one, so all are active), each with `guild_id`; `members` holds the bot's own
 * member, which clients need for `guild.members.me` (discord.js) and the bot's
 * permissions (with its managed role, found among the guild's roles), then, for a session
 * with GUILD_PRESENCES, the `crowd`'s members, with its `presences` and `large`.
 * `member_count` is the guild's whole count, with or without a crowd. ACS streams no voice
 * states.
 */
export function guildCreatePayload(source: GuildCreateSource): Record<string, unknown> {
  const { guild, botUser, joinedAt } = source;
  const channels = source.channels.map((channel): Record<string, unknown> => ({
    ...channel,
    guild_id: guild.id,
  }));
  const { crowd } = source;
  const bot = botMember(botUser, managedRoleIds(guild, botUser), joinedAt);
  bot.communication_disabled_until = source.viewerCommunicationDisabledUntil ?? null;
  const members = [bot, ...(crowd?.members ?? [])];
  return {
    ...guild,
    joined_at: joinedAt,
    large: crowd?.large ?? false,
    ...(source.fillsReadyGuild ? { unavailable: false } : {}),
    // The guild's count whatever the intents; never fewer than the members listed.
    member_count: Math.max(source.memberCount ?? 0, crowd?.memberCount ?? 0, members.length),
    voice_states: [],
    members,
    channels: channels.filter((channel) => !THREAD_TYPES.includes(channel.type)),
    threads: channels.filter((channel) => THREAD_TYPES.includes(channel.type)),
    presences: crowd?.presences ?? [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/**
 * A GUILD_CREATE's `d` built without a crowd (the one a bot's sessions share when it joins
 * a guild), as `guildCreatePayload` would have built it with `crowd`: the bot's member
 * first, then the crowd's, its presences and `large`.
 */
export function withCrowd(d: Record<string, unknown>, crowd: GuildCrowd): Record<string, unknown> {
  const listed = Array.isArray(d.members) ? (d.members as unknown[]).slice(0, 1) : [];
  const members = [...listed, ...crowd.members];
  const count = typeof d.member_count === 'number' ? d.member_count : 0;
  return {
    ...d,
    large: crowd.large,
    member_count: Math.max(count, crowd.memberCount, members.length),
    members,
    presences: crowd.presences,
  };
}

/**
 * The ids of the bot's managed role (`tags.bot_id` = the bot user's id, which permissions
 * creates when the app is installed with non-zero permissions): none, or one.
 */
function managedRoleIds(guild: Record<string, unknown>, botUser: Record<string, unknown>): unknown[] {
  const roles = Array.isArray(guild.roles) ? (guild.roles as Record<string, unknown>[]) : [];
  return roles
    .filter((role) => (role.tags as { bot_id?: unknown } | undefined)?.bot_id === botUser.id)
    .map((role) => role.id);
}

/**
 * The bot's guild member object (OpenAPI `GuildMemberResponse`). The bot holds its managed
 * role when it has one, so that clients compute its permissions from @everyone and that role.
 */
function botMember(
  user: Record<string, unknown>,
  roles: unknown[],
  joinedAt: string,
): Record<string, unknown> {
  return {
    user,
    nick: null,
    avatar: null,
    banner: null,
    roles,
    joined_at: joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
}
