import { FormErrors, SUPPORTED_LOCALES, type ErrorPath, type Locale } from '@acs/validation';
import { MAX_GLOBAL_NAME_LENGTH, MAX_SERVER_TAG_LENGTH, MIN_GLOBAL_NAME_LENGTH } from './limits';
import {
  addChoicesError,
  checkLength,
  getField,
  isAbsent,
  readBoolean,
  readModel,
  readSnowflake,
  readString,
  type JsonObject,
} from './read-value';

/**
 * The client's Profile Privacy setting for custom statuses in guilds (issue 13 item 5):
 * everyone; friends only; friends and guilds of at most 200 members.
 */
export const PROFILE_PRIVACY = ['everyone', 'friends', 'friends_and_small_servers'] as const;
/** One value of PROFILE_PRIVACY. */
export type ProfilePrivacy = (typeof PROFILE_PRIVACY)[number];

/** A user's primary guild (server tag) as user objects show it (OAS `UserPrimaryGuildResponse`). */
export interface PrimaryGuild {
  identity_guild_id: string | null;
  identity_enabled: boolean | null;
  tag: string | null;
  badge: string | null;
}

/** What `PATCH /admin/users/{id}` changes; an absent key is left as it is. */
export interface UserUpdate {
  globalName?: string | null;
  locale?: Locale;
  profilePrivacy?: ProfilePrivacy;
  primaryGuild?: PrimaryGuild | null;
}

/** A stored privacy value; anything unknown reads as the default, `everyone`. */
export function readProfilePrivacy(value: string): ProfilePrivacy {
  return (PROFILE_PRIVACY as readonly string[]).includes(value) ? (value as ProfilePrivacy) : 'everyone';
}

/** Validates a `PATCH /admin/users/{id}` body; throws 400 / 50035 with every error found. */
export function validateUserUpdate(body: JsonObject): UserUpdate {
  const errors = new FormErrors();
  const update: UserUpdate = {};
  const field = (key: string): unknown => getField(body, key);

  const globalName = field('global_name');
  if (globalName === null) update.globalName = null;
  else if (globalName !== undefined) {
    const name = readString(globalName, errors, ['global_name']);
    if (
      name !== undefined &&
      checkLength(name, MIN_GLOBAL_NAME_LENGTH, MAX_GLOBAL_NAME_LENGTH, errors, ['global_name'])
    ) {
      update.globalName = name;
    }
  }
  if (!isAbsent(field('locale'))) {
    const locale = readString(field('locale'), errors, ['locale']);
    if (locale !== undefined) {
      if ((SUPPORTED_LOCALES as readonly string[]).includes(locale)) update.locale = locale as Locale;
      else addChoicesError(SUPPORTED_LOCALES, errors, ['locale']);
    }
  }
  if (!isAbsent(field('profile_privacy'))) {
    const privacy = readString(field('profile_privacy'), errors, ['profile_privacy']);
    if (privacy !== undefined) {
      if ((PROFILE_PRIVACY as readonly string[]).includes(privacy)) {
        update.profilePrivacy = privacy as ProfilePrivacy;
      } else addChoicesError(PROFILE_PRIVACY, errors, ['profile_privacy']);
    }
  }
  const primaryGuild = field('primary_guild');
  if (primaryGuild === null) update.primaryGuild = null;
  else if (primaryGuild !== undefined) {
    const model = readModel(primaryGuild, errors, ['primary_guild']);
    if (model) {
      const read = readPrimaryGuild(model, errors, ['primary_guild']);
      if (read) update.primaryGuild = read;
    }
  }
  errors.throwIfAny();
  return update;
}

/** The four fields of a primary guild, each nullable (an absent one is null). */
function readPrimaryGuild(model: JsonObject, errors: FormErrors, path: ErrorPath): PrimaryGuild | undefined {
  const before = errors.count;
  const at = (key: string): unknown => getField(model, key) ?? null;
  const guild: PrimaryGuild = { identity_guild_id: null, identity_enabled: null, tag: null, badge: null };
  if (at('identity_guild_id') !== null) {
    guild.identity_guild_id =
      readSnowflake(at('identity_guild_id'), errors, [...path, 'identity_guild_id']) ?? null;
  }
  if (at('identity_enabled') !== null) {
    guild.identity_enabled =
      readBoolean(at('identity_enabled'), errors, [...path, 'identity_enabled']) ?? null;
  }
  if (at('tag') !== null) {
    const tag = readString(at('tag'), errors, [...path, 'tag']);
    // The server tag is at most 4 characters (OAS `UserPrimaryGuildResponse.tag`).
    if (tag !== undefined && checkLength(tag, 1, MAX_SERVER_TAG_LENGTH, errors, [...path, 'tag'])) {
      guild.tag = tag;
    }
  }
  if (at('badge') !== null) {
    const badge = readString(at('badge'), errors, [...path, 'badge']);
    if (badge !== undefined && checkLength(badge, 1, MAX_BADGE_HASH_LENGTH, errors, [...path, 'badge'])) {
      guild.badge = badge;
    }
  }
  return errors.count === before ? guild : undefined;
}

/** An image hash is 32 hex digits (with an `a_` prefix when animated); room to spare. */
const MAX_BADGE_HASH_LENGTH = 64;
