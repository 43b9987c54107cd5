import { readPathSnowflake } from '@acs/discord-errors';

/**
 * An id from a request path or an RPC field (e.g. `application_id`) as the bigint the store
 * keys on. This service checks it itself rather than trusting its caller: a malformed one
 * is 400 / 50035 `Value "x" is not snowflake.`, one above 2^63 − 1 (no bigint column holds
 * it) 400 / 50035 NUMBER_TYPE_MAX, at that name (the one id rule of `readPathSnowflake`).
 */
export function parseSnowflakeParam(name: string, value: string): bigint {
  return BigInt(readPathSnowflake(name, value));
}
