import { isSnowflake } from '@acs/snowflake';
import { BaseErrorCode } from './base-error-codes';
import { fieldError } from './discord-error';

/** How much of a rejected value an error message quotes. */
const QUOTED_LENGTH = 100;

/**
 * An id from a request path or an RPC field (e.g. `application_id`), or 400 / 50035
 * NUMBER_TYPE_COERCE `Value "x" is not snowflake.` at that name, as the real API answers
 * (facts §3.2). The quoted value is cut short: it is client text.
 */
export function readPathSnowflake(field: string, value: string): string {
  if (isSnowflake(value)) return value;
  const shown = value.length > QUOTED_LENGTH ? `${value.slice(0, QUOTED_LENGTH - 3)}...` : value;
  throw fieldError(field, BaseErrorCode.NUMBER_TYPE_COERCE, `Value "${shown}" is not snowflake.`);
}
