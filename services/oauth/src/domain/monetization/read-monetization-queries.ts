import { isSnowflake } from '@acs/snowflake';
import { FormErrors, type ErrorPath } from '@acs/validation';
import { addSnowflakeError } from '@acs/validation';
import { ErrorCode } from '../error-codes';
import {
  DEFAULT_SUBSCRIPTIONS_LIMIT,
  MAX_ENTITLEMENTS_LIMIT,
  MAX_SKU_IDS_FILTER,
  MAX_SUBSCRIPTIONS_LIMIT,
} from './monetization-limits';

/** The filters of List Entitlements (D:resources/entitlement.mdx §List Entitlements). */
export interface EntitlementQuery {
  userId: string | null;
  guildId: string | null;
  skuIds: string[] | null;
  before: string | null;
  after: string | null;
  limit: number;
  excludeEnded: boolean;
  excludeDeleted: boolean;
}

/** The filters of List SKU Subscriptions. */
export interface SubscriptionQuery {
  userId: string | null;
  before: string | null;
  after: string | null;
  limit: number;
}

/** A query string's parameters, as sent. */
export type QueryParams = Record<string, string>;

/** A snowflake parameter, or null when absent. */
function snowflakeOf(query: QueryParams, key: string, errors: FormErrors): string | null {
  const value = query[key];
  if (value === undefined) return null;
  if (isSnowflake(value)) return value;
  addSnowflakeError(value.slice(0, 100), errors, [key]);
  return null;
}

/** `limit`: an integer within 1..max, `fallback` when absent. */
function limitOf(query: QueryParams, max: number, fallback: number, errors: FormErrors): number {
  const value = query.limit;
  if (value === undefined) return fallback;
  const path: ErrorPath = ['limit'];
  if (!/^-?\d{1,10}$/.test(value)) {
    errors.add(path, ErrorCode.NUMBER_TYPE_COERCE, `Value "${value.slice(0, 100)}" is not int.`);
    return fallback;
  }
  const limit = Number(value);
  if (limit < 1)
    errors.add(path, ErrorCode.NUMBER_TYPE_MIN, 'int value should be greater than or equal to 1.');
  else if (limit > max) {
    errors.add(path, ErrorCode.NUMBER_TYPE_MAX, `int value should be less than or equal to ${max}.`);
  }
  return limit;
}

/** Discord's boolean query strings (D:reference.mdx §Boolean Query Strings): True/true/1, False/false/0. */
function booleanOf(query: QueryParams, key: string, fallback: boolean, errors: FormErrors): boolean {
  const value = query[key];
  if (value === undefined) return fallback;
  if (/^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  errors.add([key], ErrorCode.BASE_TYPE_BOOLEAN, 'Must be either true or false.');
  return fallback;
}

/** `sku_ids`: a comma-delimited set of snowflakes (each once), at most MAX_SKU_IDS_FILTER. */
function skuIdsOf(query: QueryParams, errors: FormErrors): string[] | null {
  const value = query.sku_ids;
  if (value === undefined) return null;
  const ids = value.split(',');
  if (ids.length > MAX_SKU_IDS_FILTER) {
    errors.add(
      ['sku_ids'],
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_SKU_IDS_FILTER} or fewer in length.`,
    );
    return null;
  }
  // One error at `sku_ids` (a query parameter is one field), for its first bad id.
  const bad = ids.find((id) => !isSnowflake(id));
  if (bad !== undefined) {
    addSnowflakeError(bad.slice(0, 100), errors, ['sku_ids']);
    return null;
  }
  return [...new Set(ids)];
}

/** Reads List Entitlements' query; 400 / 50035 with every malformed parameter. */
export function readEntitlementQuery(query: QueryParams): EntitlementQuery {
  const errors = new FormErrors();
  const read: EntitlementQuery = {
    userId: snowflakeOf(query, 'user_id', errors),
    guildId: snowflakeOf(query, 'guild_id', errors),
    skuIds: skuIdsOf(query, errors),
    before: snowflakeOf(query, 'before', errors),
    after: snowflakeOf(query, 'after', errors),
    limit: limitOf(query, MAX_ENTITLEMENTS_LIMIT, MAX_ENTITLEMENTS_LIMIT, errors),
    excludeEnded: booleanOf(query, 'exclude_ended', false, errors),
    excludeDeleted: booleanOf(query, 'exclude_deleted', true, errors),
  };
  errors.throwIfAny();
  return read;
}

/**
 * Reads List SKU Subscriptions' query; 400 / 50035 with every malformed parameter, and
 * `user_id` BASE_TYPE_REQUIRED for a bot ("required except for OAuth queries").
 */
export function readSubscriptionQuery(query: QueryParams, isOAuth: boolean): SubscriptionQuery {
  const errors = new FormErrors();
  const read: SubscriptionQuery = {
    userId: snowflakeOf(query, 'user_id', errors),
    before: snowflakeOf(query, 'before', errors),
    after: snowflakeOf(query, 'after', errors),
    limit: limitOf(query, MAX_SUBSCRIPTIONS_LIMIT, DEFAULT_SUBSCRIPTIONS_LIMIT, errors),
  };
  if (!isOAuth && query.user_id === undefined) {
    errors.add(['user_id'], ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
  }
  errors.throwIfAny();
  return read;
}
