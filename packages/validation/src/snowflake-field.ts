import { snowflakeErrorLeaf } from '@acs/discord-errors';
import type { ErrorPath, FormErrors } from './form-errors';
import { describeValue } from './describe-value';

/**
 * Records why a body's `value` is no snowflake, under the API's one id rule
 * (`readPathSnowflake` of @acs/discord-errors): NUMBER_TYPE_MAX above 2^63 − 1, else
 * NUMBER_TYPE_COERCE.
 */
export function addSnowflakeError(value: unknown, errors: FormErrors, path: ErrorPath): void {
  const { code, message } = snowflakeErrorLeaf(value, describeValue(value));
  errors.add(path, code, message);
}
