/** Discord's epoch, the first millisecond of 2015 (reference §Snowflakes). */
export const DISCORD_EPOCH = 1420070400000n;

/**
 * The largest id the API takes, 2^63 − 1, as text. Ids are stored as PostgreSQL's signed
 * bigint, and Discord's validators stop at the same value: a larger one is 400 / 50035
 * NUMBER_TYPE_MAX "snowflake value should be less than or equal to 9223372036854775807."
 * (discord-api-docs#3733).
 */
export const MAX_SNOWFLAKE = '9223372036854775807';

/** Decimal, no sign, no leading zero; linear on any input (one anchored pass, no nested repeats). */
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** How a string reads as an id: a snowflake, text that is no number, or a number above MAX_SNOWFLAKE. */
export type SnowflakeCheck = 'valid' | 'malformed' | 'too_large';

/**
 * Classifies a would-be id without big-number work, so that the cost of hostile input is
 * one linear scan: decimals are compared as text (equal lengths compare like numbers).
 */
export function checkSnowflake(value: string): SnowflakeCheck {
  if (!DECIMAL.test(value)) return 'malformed';
  if (value.length < MAX_SNOWFLAKE.length) return 'valid';
  return value.length === MAX_SNOWFLAKE.length && value <= MAX_SNOWFLAKE ? 'valid' : 'too_large';
}

/** Whether a string is a snowflake as the API accepts it: decimal, no sign, at most 2^63 − 1. */
export function isSnowflake(value: string): boolean {
  return checkSnowflake(value) === 'valid';
}

/** The creation time a snowflake encodes, in milliseconds since the Unix epoch. */
export function snowflakeTimestamp(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}
