import { readPathSnowflake } from '@acs/discord-errors';

/**
 * An id from a request path (e.g. `application_id`) as the bigint the store keys on; a
 * malformed one is 400 / 50035 `Value "x" is not snowflake.` at that name.
 */
export function parseSnowflakeParam(name: string, value: string): bigint {
  return BigInt(readPathSnowflake(name, value));
}
