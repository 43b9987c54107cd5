// The JSON readers of @acs/validation, and oauth's integer range check.
import { checkRange as checkNumberRange, type ErrorPath, type FormErrors } from '@acs/validation';

export {
  addChoicesError,
  addRequired,
  checkItemCount,
  checkLength,
  codePointLength,
  describeValue,
  getField,
  isAbsent,
  isJsonObject,
  readBoolean,
  readDict,
  readEnumSet,
  readInteger,
  readList,
  readModel,
  readSnowflake,
  readString,
  type JsonObject,
} from '@acs/validation';

/** Checks min ≤ n ≤ max for an integer, recording NUMBER_TYPE_MIN / NUMBER_TYPE_MAX. */
export function checkRange(
  value: number,
  min: number,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): boolean {
  return checkNumberRange(value, min, max, 'int', errors, path);
}
