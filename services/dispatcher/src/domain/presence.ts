// Presences (D:events/gateway-events.mdx §Update Presence, §Presence Update, §Activity Object).

/** The statuses op 3 may set (§Update Presence, Status Types). */
export const PRESENCE_STATUSES = ['online', 'dnd', 'idle', 'invisible', 'offline'] as const;
/** One of PRESENCE_STATUSES. */
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

/** Activity types: 0 Playing … 4 Custom, 5 Competing (§Activity Types). */
const MAX_ACTIVITY_TYPE = 5;
/** A custom status (`{emoji} {state}`), the activity the profile privacy rule hides. */
export const CUSTOM_STATUS_TYPE = 4;
/** A guild "above 200 members" is no small server for `friends_and_small_servers` (issue 13). */
export const SMALL_SERVER_MAX_MEMBERS = 200;
/**
 * Activities one presence may hold. Discord documents no number; the client shows a few, and
 * the 4096-byte payload bounds them anyway: more is refused as a malformed payload.
 */
export const MAX_ACTIVITIES = 10;
/** Longest text of an activity field kept (the client's limit for a custom status is 128). */
const MAX_ACTIVITY_TEXT = 128;
/** Longest `url` kept. */
const MAX_ACTIVITY_URL = 512;

/** Who may see a user's custom status in guilds (oauth's `profile_privacy`). */
export type ProfilePrivacy = 'everyone' | 'friends' | 'friends_and_small_servers';

/** One activity as stored and sent: only the fields a client may set, `created_at` the server's. */
export interface Activity {
  name: string;
  type: number;
  url?: string | null;
  state?: string | null;
  details?: string | null;
  emoji?: { name: string; id?: string | null; animated?: boolean } | null;
  created_at: number;
}

/** A presence as op 3 (or Identify's `presence`) sets it. */
export interface Presence {
  since: number | null;
  activities: Activity[];
  status: PresenceStatus;
  afk: boolean;
}

/** Who set a presence: a bot may set only `name`, `state`, `type` and `url` of an activity. */
export type PresenceSetter = 'bot' | 'user';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string of at most `max` characters without U+0000, or null/absent; false when it is anything else. */
function readText(value: unknown, max: number): string | null | undefined | false {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string' || value.length > max || value.includes('\u0000')) return false;
  return value;
}

/**
 * Reads op 3's `d` (or Identify's `presence`); null when it is malformed: a field of the
 * wrong type, an unknown status or activity type, more than MAX_ACTIVITIES activities, an
 * oversized text. Unknown activity fields are dropped, as are those a bot may not set.
 */
export function readPresence(d: unknown, setter: PresenceSetter, now: number): Presence | null {
  if (!isObject(d)) return null;
  const { since, activities, status, afk } = d;
  if (since !== null && since !== undefined && !(Number.isSafeInteger(since) && (since as number) >= 0)) {
    return null;
  }
  if (typeof status !== 'string' || !(PRESENCE_STATUSES as readonly string[]).includes(status)) return null;
  if (afk !== undefined && afk !== null && typeof afk !== 'boolean') return null;
  const list = activities ?? [];
  if (!Array.isArray(list) || list.length > MAX_ACTIVITIES) return null;
  const read: Activity[] = [];
  for (const item of list) {
    const activity = readActivity(item, setter, now);
    if (!activity) return null;
    read.push(activity);
  }
  return {
    since: typeof since === 'number' ? since : null,
    activities: read,
    status: status as PresenceStatus,
    afk: afk === true,
  };
}

function readActivity(item: unknown, setter: PresenceSetter, now: number): Activity | null {
  if (!isObject(item)) return null;
  const { type } = item;
  if (!Number.isInteger(type) || (type as number) < 0 || (type as number) > MAX_ACTIVITY_TYPE) return null;
  // A custom status may come without a name; the client names it "Custom Status".
  const name = readText(
    item.name ?? (type === CUSTOM_STATUS_TYPE ? 'Custom Status' : undefined),
    MAX_ACTIVITY_TEXT,
  );
  if (typeof name !== 'string' || name.length === 0) return null;
  const activity: Activity = { name, type: type as number, created_at: now };
  const url = readText(item.url, MAX_ACTIVITY_URL);
  const state = readText(item.state, MAX_ACTIVITY_TEXT);
  if (url === false || state === false) return null;
  if (url !== undefined) activity.url = url;
  if (state !== undefined) activity.state = state;
  if (setter === 'user') {
    const details = readText(item.details, MAX_ACTIVITY_TEXT);
    if (details === false) return null;
    if (details !== undefined) activity.details = details;
    if (item.emoji !== undefined && item.emoji !== null) {
      const emoji = readEmoji(item.emoji);
      if (!emoji) return null;
      activity.emoji = emoji;
    }
  }
  return activity;
}

function readEmoji(value: unknown): Activity['emoji'] {
  if (!isObject(value)) return null;
  const name = readText(value.name, MAX_ACTIVITY_TEXT);
  if (typeof name !== 'string') return null;
  const emoji: NonNullable<Activity['emoji']> = { name };
  if (value.id !== undefined && value.id !== null) {
    if (typeof value.id !== 'string' || !/^\d{1,20}$/.test(value.id)) return null;
    emoji.id = value.id;
  }
  if (value.animated !== undefined) {
    if (typeof value.animated !== 'boolean') return null;
    emoji.animated = value.animated;
  }
  return emoji;
}

/** A user's presence where they are not connected (or after their last session ended). */
export const OFFLINE_PRESENCE: Presence = { since: null, activities: [], status: 'offline', afk: false };

/** The presence of a user, stored, with what the guild-dependent rules need. */
export interface StoredPresence {
  userId: string;
  presence: Presence;
  setter: PresenceSetter;
  profilePrivacy: ProfilePrivacy;
}

/**
 * Whether a user's custom status is hidden from a guild's bots: privacy `friends`, or
 * `friends_and_small_servers` in a guild of more than 200 members (issue 13 item 5).
 */
export function hidesCustomStatus(privacy: ProfilePrivacy, guildMemberCount: number): boolean {
  return (
    privacy === 'friends' ||
    (privacy === 'friends_and_small_servers' && guildMemberCount > SMALL_SERVER_MAX_MEMBERS)
  );
}

/**
 * PRESENCE_UPDATE's `d` for one guild (§Presence Update): `user` (its id at least; the
 * announcer sends the public user, which the docs allow and which lets a client that has
 * not cached the member, e.g. discord.js without GUILD_MEMBERS, use the update), the
 * status (invisible shows as offline, §Status Types), the activities the guild may see
 * (none when offline), and `client_status` by platform (none when offline: §Client Status
 * Object). A bot's session counts as `web` (its documented platform); a chat client's as
 * `desktop`.
 */
export function presenceUpdatePayload(
  stored: StoredPresence,
  guildId: string,
  guildMemberCount: number,
  user: Record<string, unknown> = { id: stored.userId },
): Record<string, unknown> {
  const shown = stored.presence.status === 'invisible' ? 'offline' : stored.presence.status;
  const hideCustom = hidesCustomStatus(stored.profilePrivacy, guildMemberCount);
  const activities =
    shown === 'offline'
      ? []
      : stored.presence.activities.filter((a) => !(hideCustom && a.type === CUSTOM_STATUS_TYPE));
  return {
    user: { ...user, id: stored.userId },
    guild_id: guildId,
    status: shown,
    activities,
    client_status: shown === 'offline' ? {} : { [stored.setter === 'bot' ? 'web' : 'desktop']: shown },
  };
}
