import { PERMISSION_FLAGS as P } from './permission-flags';

/** Guild names: 2-100 characters (D:resources/guild.mdx §Create Guild). */
export const MIN_GUILD_NAME_LENGTH = 2;
export const MAX_GUILD_NAME_LENGTH = 100;

/** Role names: 1-100 characters. */
export const MIN_ROLE_NAME_LENGTH = 1;
export const MAX_ROLE_NAME_LENGTH = 100;

/** Channel names: 1-100 characters (D:resources/guild.mdx §Create Guild Channel). */
export const MIN_CHANNEL_NAME_LENGTH = 1;
export const MAX_CHANNEL_NAME_LENGTH = 100;

/** Nicknames: 1-32 characters (D:resources/guild.mdx §Guild Member Object). */
export const MIN_NICK_LENGTH = 1;
export const MAX_NICK_LENGTH = 32;

/** Roles per guild, @everyone included: 250 (error 30005). */
export const MAX_ROLES_PER_GUILD = 250;

/** Channels per guild, threads excluded: 500 (error 30013). */
export const MAX_CHANNELS_PER_GUILD = 500;

/** Overwrites per channel; the real limit is not documented, this bounds the request size. */
export const MAX_OVERWRITES_PER_CHANNEL = 100;

/** Highest role position a request may set (positions are small integers in practice). */
export const MAX_ROLE_POSITION = MAX_ROLES_PER_GUILD;

/**
 * The permissions of a new guild's @everyone role: "1126971605503553", the set the real
 * service gives @everyone when a guild is created from the default template
 * ("1071698660929") plus USE_EXTERNAL_APPS, which Discord enables for servers by default
 * (D:change-log.mdx, June 2024 "Use External Apps"). It lets members see, talk and use
 * application commands and their user-installed apps publicly, and grants no moderation
 * right: no ADMINISTRATOR, MANAGE_GUILD, MANAGE_ROLES, MANAGE_CHANNELS or PIN_MESSAGES.
 */
export const DEFAULT_EVERYONE_PERMISSIONS =
  P.CREATE_INSTANT_INVITE |
  P.ADD_REACTIONS |
  P.STREAM |
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY |
  P.MENTION_EVERYONE |
  P.USE_EXTERNAL_EMOJIS |
  P.CONNECT |
  P.SPEAK |
  P.USE_VAD |
  P.CHANGE_NICKNAME |
  P.USE_APPLICATION_COMMANDS |
  P.REQUEST_TO_SPEAK |
  P.CREATE_PUBLIC_THREADS |
  P.CREATE_PRIVATE_THREADS |
  P.USE_EXTERNAL_STICKERS |
  P.SEND_MESSAGES_IN_THREADS |
  P.USE_EMBEDDED_ACTIVITIES |
  P.USE_EXTERNAL_APPS;

/** Others a group DM may hold besides its creator: 9, a group DM having at most 10 members. */
export const MAX_GROUP_DM_RECIPIENTS = 9;

/** Longest voice channel status (D:resources/channel.mdx §Set Voice Channel Status). */
export const MAX_VOICE_STATUS_LENGTH = 500;
/** Members per ListGuildMembers page: a Guild Members Chunk's size (D:events/gateway-events.mdx §Request Guild Members). */
export const MAX_MEMBERS_PER_PAGE = 1000;

/** Users one Request Guild Members may name, and guilds one ListGuildBots may ask about. */
export const MAX_LISTED_IDS = 100;

/** How far ahead a member's timeout may end: 28 days (D:resources/guild.mdx §Modify Guild Member). */
export const MAX_TIMEOUT_MS = 28 * 24 * 60 * 60 * 1000;
