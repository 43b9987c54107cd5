import { MAX_GUILD_NAME_LENGTH, MIN_GUILD_NAME_LENGTH } from './limits';
import { formatLocaleChoices, FormErrors, isLocale, readString, type ErrorPath } from '@acs/validation';
import { ErrorCode } from './validation/error-codes';
import { readModel, readOptional, readRequired, readSnowflake, textReader } from './validation/read-value';

/** A valid CreateGuild body. */
export interface CreateGuildInput {
  name: string;
  ownerId: string;
  /** The guild's language; undefined keeps the default ("en-US", as a new guild on the real service). */
  preferredLocale?: string;
}

/** A supported locale (Discord's guild `preferred_locale`), or BASE_TYPE_CHOICES listing them. */
function readLocale(value: unknown, errors: FormErrors, path: ErrorPath): string | undefined {
  const text = readString(value, errors, path);
  if (text === undefined) return undefined;
  if (isLocale(text)) return text;
  errors.add(path, ErrorCode.BASE_TYPE_CHOICES, `Value must be one of ${formatLocaleChoices()}.`);
  return undefined;
}

/**
 * Validates `{name (2-100), owner_id, preferred_locale?}` (ADMIN-API.md `POST
 * /admin/guilds`; the locale is an ACS addition, so that tests can give a guild the
 * `guild_locale` of their interactions); throws 50035 with every problem. That the owner
 * user exists is the caller's check.
 */
export function validateCreateGuild(body: unknown): CreateGuildInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const name = readRequired(object, 'name', errors, textReader(MIN_GUILD_NAME_LENGTH, MAX_GUILD_NAME_LENGTH));
  const ownerId = readRequired(object, 'owner_id', errors, readSnowflake);
  const preferredLocale = readOptional(object, 'preferred_locale', errors, readLocale);
  if (errors.count > 0 || name === undefined || ownerId === undefined) throw errors.toError();
  return preferredLocale === undefined ? { name, ownerId } : { name, ownerId, preferredLocale };
}
