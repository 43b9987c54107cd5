import { fieldError } from '@acs/service-kit';
import { isSnowflake } from '@acs/snowflake';
import { ErrorCode } from './error-codes';

/** A snowflake from the path (or an RPC field), or 50035 at `field`: `Value "x" is not snowflake.` (facts §3.2). */
export function readPathSnowflake(field: string, value: string): string {
  if (isSnowflake(value)) return value;
  throw fieldError(field, ErrorCode.NUMBER_TYPE_COERCE, `Value "${value.slice(0, 100)}" is not snowflake.`);
}
