import { fieldError } from '@acs/service-kit';
import { isSnowflake } from '@acs/snowflake';
import { ErrorCode } from './error-codes';
import { describeValue } from './read-value';

/**
 * An id from a request path (e.g. `application_id`) as a bigint; a malformed one is
 * 400 / 50035 `Value "x" is not snowflake.` at that name (facts §3.2).
 */
export function parseSnowflakeParam(name: string, value: string): bigint {
  if (isSnowflake(value)) return BigInt(value);
  throw fieldError(name, ErrorCode.NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not snowflake.`);
}
