import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/**
 * A command's (or, with the application id as `id`, the application's) permissions in a
 * guild were replaced: the guild application command permissions object, as
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE carries it (D:events/gateway-events.mdx; facts §17).
 */
export const applicationCommandPermissionsUpdated = z.object({
  id: snowflake,
  application_id: snowflake,
  guild_id: snowflake,
  permissions: z.array(
    z.object({
      id: snowflake,
      type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      permission: z.boolean(),
    }),
  ),
});

/**
 * A guild member joined, moved within or left a guild's voice channels (op 4 Voice State
 * Update): the voice state object as VOICE_STATE_UPDATE carries it (D:resources/voice.mdx;
 * `channel_id` null when they left).
 */
export const voiceStateUpdated = z.object({
  guild_id: snowflake,
  channel_id: snowflake.nullable(),
  user_id: snowflake,
  session_id: z.string(),
  deaf: z.boolean(),
  mute: z.boolean(),
  self_deaf: z.boolean(),
  self_mute: z.boolean(),
  self_video: z.boolean(),
  suppress: z.boolean(),
  request_to_speak_timestamp: z.string().nullable(),
});

/** A voice channel's status was set or cleared: VOICE_CHANNEL_STATUS_UPDATE's `d` (D:events/gateway-events.mdx). */
export const voiceChannelStatusUpdated = z.object({
  id: snowflake,
  guild_id: snowflake,
  status: z.string().nullable(),
});

/**
 * A voice channel's session started (its first member connected) or ended (its last left):
 * VOICE_CHANNEL_START_TIME_UPDATE's `d`, `voice_start_time` in Unix seconds or null.
 */
export const voiceChannelStartTimeUpdated = z.object({
  id: snowflake,
  guild_id: snowflake,
  voice_start_time: z.number().int().nullable(),
});

/**
 * A guild member as permissions renders it (D:resources/guild.mdx §Guild Member Object):
 * `user` carries only the id (users are oauth's; the dispatcher fills in the rest).
 */
const member = z
  .object({
    user: z.object({ id: snowflake }),
    nick: z.string().nullable(),
    roles: z.array(snowflake),
    joined_at: z.string(),
  })
  .passthrough();

/** Who changed in a guild's membership, and whether that user is an installed app's bot. */
const memberSubject = { guild_id: snowflake, user_id: snowflake, bot: z.boolean() };

/** A user joined a guild (admin API, or an install adding the bot): GUILD_MEMBER_ADD. */
export const memberAdded = z.object({ ...memberSubject, member });

/** A member's roles, nick or timeout changed (admin API, Modify Guild Member, AutoMod, an install's managed role): GUILD_MEMBER_UPDATE. */
export const memberUpdated = memberAdded;

/** A user left a guild (admin API removal, an uninstall): GUILD_MEMBER_REMOVE. */
export const memberRemoved = z.object(memberSubject);

/** A role as permissions renders it (D:topics/permissions.mdx §Role Object). */
const role = z.object({ id: snowflake, name: z.string(), permissions: z.string() }).passthrough();

/** A role was created (admin API, a bot's managed role at install): GUILD_ROLE_CREATE. */
export const roleCreated = z.object({ guild_id: snowflake, role });

/** A role changed (admin API, a new install's permissions, the app's rename): GUILD_ROLE_UPDATE. */
export const roleUpdated = roleCreated;

/** A role was deleted (a bot's managed role with its bot or its permissions): GUILD_ROLE_DELETE. */
export const roleDeleted = z.object({ guild_id: snowflake, role_id: snowflake });
