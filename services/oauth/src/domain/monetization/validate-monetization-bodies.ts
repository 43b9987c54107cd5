import { FormErrors } from '@acs/validation';
import {
  addChoicesError,
  addRequired,
  checkLength,
  getField,
  isAbsent,
  readInteger,
  readList,
  readSnowflake,
  readString,
  type JsonObject,
} from '../read-value';
import { ErrorCode } from '../error-codes';
import {
  ALL_SKU_FLAGS,
  CREATABLE_SKU_TYPES,
  MAX_RENEWAL_SKUS,
  MAX_SKU_NAME_LENGTH,
  OwnerType,
  SkuFlag,
  SkuType,
} from './monetization-limits';

/** A SKU as `POST /admin/applications/{id}/skus` creates it. */
export interface NewSku {
  type: number;
  name: string;
  slug: string;
  flags: number;
}

/** Who an entitlement goes to: a user, or a guild (with the buying user, when known). */
export interface EntitlementOwner {
  userId: string | null;
  guildId: string | null;
}

/** What a purchase, a test grant or a subscription names: the SKU and its owner. */
export interface GrantRequest {
  skuId: string;
  owner: EntitlementOwner;
}

/** A required snowflake field. */
function requiredSnowflake(body: JsonObject, key: string, errors: FormErrors): string {
  const value = getField(body, key);
  if (isAbsent(value)) {
    addRequired(errors, [key]);
    return '';
  }
  return readSnowflake(value, errors, [key]) ?? '';
}

/** An optional snowflake field. */
function optionalSnowflake(body: JsonObject, key: string, errors: FormErrors): string | null {
  const value = getField(body, key);
  return isAbsent(value) ? null : (readSnowflake(value, errors, [key]) ?? null);
}

/** The URL slug the portal derives from a name: lower case, runs of other characters as one `-`. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'sku' : slug;
}

/**
 * `type` (2, 3 or 5), `name` (1-100), `slug?` (derived from the name), `flags?` (SKU
 * flags; default AVAILABLE, and for a subscription also USER_SUBSCRIPTION, which must
 * otherwise be set exactly one of GUILD_ and USER_SUBSCRIPTION); 400 / 50035 otherwise.
 */
export function validateNewSku(body: JsonObject): NewSku {
  const errors = new FormErrors();
  let type = 0;
  const rawType = getField(body, 'type');
  if (isAbsent(rawType)) addRequired(errors, ['type']);
  else {
    const read = readInteger(rawType, errors, ['type']);
    if (read !== undefined && !(CREATABLE_SKU_TYPES as readonly number[]).includes(read)) {
      addChoicesError(CREATABLE_SKU_TYPES, errors, ['type']);
    } else if (read !== undefined) type = read;
  }
  let name = '';
  const rawName = getField(body, 'name');
  if (isAbsent(rawName)) addRequired(errors, ['name']);
  else {
    const read = readString(rawName, errors, ['name']);
    if (read !== undefined && checkLength(read.trim(), 1, MAX_SKU_NAME_LENGTH, errors, ['name']))
      name = read.trim();
  }
  let slug = '';
  const rawSlug = getField(body, 'slug');
  if (!isAbsent(rawSlug)) {
    const read = readString(rawSlug, errors, ['slug']);
    if (read !== undefined && checkLength(read, 1, MAX_SKU_NAME_LENGTH, errors, ['slug'])) {
      if (/^[a-z0-9-]+$/.test(read)) slug = read;
      else errors.add(['slug'], ErrorCode.STRING_TYPE_REGEX, 'String value did not match validation regex.');
    }
  }
  const subscriptionBits = SkuFlag.GUILD_SUBSCRIPTION | SkuFlag.USER_SUBSCRIPTION;
  let flags = SkuFlag.AVAILABLE | (type === SkuType.SUBSCRIPTION ? SkuFlag.USER_SUBSCRIPTION : 0);
  const rawFlags = getField(body, 'flags');
  if (!isAbsent(rawFlags)) {
    const read = readInteger(rawFlags, errors, ['flags']);
    if (read !== undefined) {
      const bits = read & subscriptionBits;
      const valid =
        read >= 0 &&
        (read & ~ALL_SKU_FLAGS) === 0 &&
        (type === SkuType.SUBSCRIPTION
          ? bits === SkuFlag.GUILD_SUBSCRIPTION || bits === SkuFlag.USER_SUBSCRIPTION
          : bits === 0);
      if (valid) flags = read;
      else {
        errors.add(
          ['flags'],
          ErrorCode.BASE_TYPE_CHOICES,
          'Flags must be AVAILABLE (4) and, for a subscription SKU only, one of GUILD_SUBSCRIPTION (128) and USER_SUBSCRIPTION (256).',
        );
      }
    }
  }
  errors.throwIfAny();
  return { type, name, slug: slug || slugify(name), flags };
}

/** Create Test Entitlement's body: `sku_id`, `owner_id`, `owner_type` (1 guild, 2 user), all required. */
export function validateTestEntitlementBody(body: JsonObject): GrantRequest {
  const errors = new FormErrors();
  const skuId = requiredSnowflake(body, 'sku_id', errors);
  const ownerId = requiredSnowflake(body, 'owner_id', errors);
  let ownerType = 0;
  const rawType = getField(body, 'owner_type');
  if (isAbsent(rawType)) addRequired(errors, ['owner_type']);
  else {
    const read = readInteger(rawType, errors, ['owner_type']);
    if (read === OwnerType.GUILD || read === OwnerType.USER) ownerType = read;
    else if (read !== undefined) addChoicesError([OwnerType.GUILD, OwnerType.USER], errors, ['owner_type']);
  }
  errors.throwIfAny();
  return {
    skuId,
    owner:
      ownerType === OwnerType.GUILD ? { userId: null, guildId: ownerId } : { userId: ownerId, guildId: null },
  };
}

/**
 * The admin purchase (`POST /admin/entitlements`) or subscription (`POST /admin/subscriptions`)
 * body: `sku_id` and `user_id`, plus `guild_id` for a guild's; a purchase may name only a
 * guild. 400 / 50035 otherwise.
 */
export function validateGrantBody(body: JsonObject, needsUser: boolean): GrantRequest {
  const errors = new FormErrors();
  const skuId = requiredSnowflake(body, 'sku_id', errors);
  const guildId = optionalSnowflake(body, 'guild_id', errors);
  const userId =
    needsUser || isAbsent(getField(body, 'guild_id'))
      ? requiredSnowflake(body, 'user_id', errors)
      : optionalSnowflake(body, 'user_id', errors);
  errors.throwIfAny();
  return { skuId, owner: { userId: userId || null, guildId } };
}

/** `renewal_sku_ids`: null, or a list of at most MAX_RENEWAL_SKUS distinct snowflakes. */
export function validateRenewalSkusBody(body: JsonObject): string[] | null {
  const errors = new FormErrors();
  const value = getField(body, 'renewal_sku_ids');
  if (value === undefined) {
    addRequired(errors, ['renewal_sku_ids']);
    errors.throwIfAny();
  }
  if (value === null) return null;
  const list = readList(value, errors, ['renewal_sku_ids']);
  const ids: string[] = [];
  if (list && list.length > MAX_RENEWAL_SKUS) {
    errors.add(
      ['renewal_sku_ids'],
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_RENEWAL_SKUS} or fewer in length.`,
    );
  } else if (list) {
    for (const [i, item] of list.entries()) {
      const id = readSnowflake(item, errors, ['renewal_sku_ids', i]);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
  }
  errors.throwIfAny();
  return ids;
}
