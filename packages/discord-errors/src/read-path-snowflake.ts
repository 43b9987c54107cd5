// Ids the API reads: one rule for every kind of place (path, query string, body, and the
// id fields of RPCs, which a service checks again rather than trusting its caller). An id
// must fit PostgreSQL's signed bigint, and the answer is Discord's: a decimal above
// 2^63 − 1 is 400 / 50035 NUMBER_TYPE_MAX at the field (discord-api-docs#3733), anything
// else that is no decimal is NUMBER_TYPE_COERCE `Value "x" is not snowflake.` (facts §3.2).
// The OAuth2 token endpoint answers its own format instead: 401 invalid_client.
import { checkSnowflake, isSnowflake, MAX_SNOWFLAKE } from '@acs/snowflake';
import { BaseErrorCode } from './base-error-codes';
import { fieldError, type ErrorLeaf } from './discord-error';

/** How much of a rejected value an error message quotes. */
const QUOTED_LENGTH = 100;

/**
 * The error leaf for a value that is no usable id: NUMBER_TYPE_MAX for a decimal above
 * 2^63 − 1, else NUMBER_TYPE_COERCE quoting `quoted` (the value as the caller shows it).
 */
export function snowflakeErrorLeaf(value: unknown, quoted: string): ErrorLeaf {
  if (typeof value === 'string' && checkSnowflake(value) === 'too_large') {
    return {
      code: BaseErrorCode.NUMBER_TYPE_MAX,
      message: `snowflake value should be less than or equal to ${MAX_SNOWFLAKE}.`,
    };
  }
  return { code: BaseErrorCode.NUMBER_TYPE_COERCE, message: `Value "${quoted}" is not snowflake.` };
}

/**
 * An id from a request path, a query string or an RPC field (e.g. `application_id`), or
 * 400 / 50035 at that name (see snowflakeErrorLeaf). The quoted value is cut short: it is
 * client text.
 */
export function readPathSnowflake(field: string, value: string): string {
  if (isSnowflake(value)) return value;
  const shown = value.length > QUOTED_LENGTH ? `${value.slice(0, QUOTED_LENGTH - 3)}...` : value;
  const { code, message } = snowflakeErrorLeaf(value, shown);
  throw fieldError(field, code, message);
}
