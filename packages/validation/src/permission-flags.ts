// Discord's bitwise permission flags (D:topics/permissions.mdx §Bitwise Permission Flags):
// the one definition every service reads, computes and renders permission bits with.
// Bit 47 is unassigned in the documentation; the highest documented bit is 52 (BYPASS_SLOWMODE).

/** Every documented permission flag by name. */
export const PERMISSION_FLAGS = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  SET_VOICE_CHANNEL_STATUS: 1n << 48n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
  PIN_MESSAGES: 1n << 51n,
  BYPASS_SLOWMODE: 1n << 52n,
} as const;

/** The name of a permission flag. */
export type PermissionName = keyof typeof PERMISSION_FLAGS;

/** Flag value → name, so that callers can name the bits a user lacks (e.g. MANAGE_GUILD). */
export const PERMISSION_NAMES: ReadonlyMap<bigint, PermissionName> = new Map(
  (Object.entries(PERMISSION_FLAGS) as [PermissionName, bigint][]).map(([name, bit]) => [bit, name]),
);

/**
 * "All permissions", what an owner or ADMINISTRATOR has: every bit up to the highest
 * flag, the way the real API reports an administrator's permissions (2^n − 1).
 */
export const ALL_PERMISSIONS = (PERMISSION_FLAGS.BYPASS_SLOWMODE << 1n) - 1n;

/** No permissions. */
export const NO_PERMISSIONS = 0n;

/** The names of the known flags set in a bit set, lowest bit first; unnamed bits are skipped. */
export function namePermissions(bits: bigint): PermissionName[] {
  const names: PermissionName[] = [];
  for (const [bit, name] of PERMISSION_NAMES) if ((bits & bit) === bit) names.push(name);
  return names;
}

/** Whether every bit of `required` is in `permissions`. */
export function hasPermissions(permissions: bigint, required: bigint): boolean {
  return (permissions & required) === required;
}
