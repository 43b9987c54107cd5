// JSON-type readers: each checks one value, records Discord's error for a wrong type at
// `path`, and returns the typed value or undefined. Messages are the real API's
// (facts §3.3; the wording of Discord's schematics-based validators).
import { isSnowflake } from '@acs/snowflake';
import { BaseErrorCode as ErrorCode, isJsonObject, type JsonObject } from '@acs/discord-errors';
import type { ErrorPath, FormErrors } from './form-errors';
import { describeValue } from './describe-value';
import { addNulError, hasNul } from './nul-character';
import { isLengthWithin } from './text-length';
import { addSnowflakeError } from './snowflake-field';

export { describeValue } from './describe-value';
export { codePointLength, isLengthWithin } from './text-length';

export { isJsonObject, type JsonObject };

/** An own field of a JSON object; inherited names such as `constructor` never count. */
export function getField(object: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** Whether a field is missing or null (the API treats both as "not given"). */
export function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** Records BASE_TYPE_REQUIRED. */
export function addRequired(errors: FormErrors, path: ErrorPath): void {
  errors.add(path, ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
}

/**
 * A string, or BASE_TYPE_STRING; a string holding U+0000 is STRING_TYPE_NUL_CHARACTER, as
 * no PostgreSQL text can store it (api-gateway refuses it first; this holds for any caller).
 */
export function readString(value: unknown, errors: FormErrors, path: ErrorPath): string | undefined {
  if (typeof value === 'string') {
    if (!hasNul(value)) return value;
    addNulError(errors, path);
    return undefined;
  }
  errors.add(path, ErrorCode.BASE_TYPE_STRING, `Could not interpret "${describeValue(value)}" as string.`);
  return undefined;
}

/** An integer, or NUMBER_TYPE_COERCE `Value "x" is not int.` (bounds are the caller's: see checkRange). */
export function readInteger(value: unknown, errors: FormErrors, path: ErrorPath): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  errors.add(path, ErrorCode.NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not int.`);
  return undefined;
}

/** A finite number, or NUMBER_TYPE_COERCE `Value "x" is not float.`. */
export function readNumber(value: unknown, errors: FormErrors, path: ErrorPath): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  errors.add(path, ErrorCode.NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not float.`);
  return undefined;
}

/** A boolean, or BASE_TYPE_BOOLEAN. */
export function readBoolean(value: unknown, errors: FormErrors, path: ErrorPath): boolean | undefined {
  if (typeof value === 'boolean') return value;
  errors.add(path, ErrorCode.BASE_TYPE_BOOLEAN, 'Must be either true or false.');
  return undefined;
}

/** An array, or LIST_TYPE_CONVERT. */
export function readList(value: unknown, errors: FormErrors, path: ErrorPath): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  errors.add(path, ErrorCode.LIST_TYPE_CONVERT, 'Only iterables may be used in a ListType');
  return undefined;
}

/**
 * A snowflake, given as a decimal string or a safe integer (the API accepts both), as a
 * string; else the error of `addSnowflakeError` (COERCE, or MAX above 2^63 − 1).
 */
export function readSnowflake(value: unknown, errors: FormErrors, path: ErrorPath): string | undefined {
  if (typeof value === 'string' && isSnowflake(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  addSnowflakeError(value, errors, path);
  return undefined;
}

/** An object that is a model (command, option, choice), or MODEL_TYPE_CONVERT. */
export function readModel(value: unknown, errors: FormErrors, path: ErrorPath): JsonObject | undefined {
  if (isJsonObject(value)) return value;
  errors.add(path, ErrorCode.MODEL_TYPE_CONVERT, 'Only dictionaries may be used in a ModelType');
  return undefined;
}

/** An object that is a dictionary (localizations), or DICT_TYPE_CONVERT. */
export function readDict(value: unknown, errors: FormErrors, path: ErrorPath): JsonObject | undefined {
  if (isJsonObject(value)) return value;
  errors.add(path, ErrorCode.DICT_TYPE_CONVERT, 'Only dictionaries may be used in a DictType');
  return undefined;
}

/** Checks min ≤ n ≤ max, recording NUMBER_TYPE_MIN / NUMBER_TYPE_MAX; `kind` is "int" or "float". */
export function checkRange(
  value: number,
  min: number,
  max: number,
  kind: 'int' | 'float',
  errors: FormErrors,
  path: ErrorPath,
): boolean {
  if (value < min) {
    errors.add(path, ErrorCode.NUMBER_TYPE_MIN, `${kind} value should be greater than or equal to ${min}.`);
    return false;
  }
  if (value > max) {
    errors.add(path, ErrorCode.NUMBER_TYPE_MAX, `${kind} value should be less than or equal to ${max}.`);
    return false;
  }
  return true;
}

/**
 * Checks a string's length in code points: BASE_TYPE_BAD_LENGTH "Must be between min and
 * max in length." or, when min is 0, BASE_TYPE_MAX_LENGTH "Must be max or fewer in length.".
 */
export function checkLength(
  value: string,
  min: number,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): boolean {
  if (isLengthWithin(value, min, max)) return true;
  if (min <= 0) errors.add(path, ErrorCode.BASE_TYPE_MAX_LENGTH, `Must be ${max} or fewer in length.`);
  else errors.add(path, ErrorCode.BASE_TYPE_BAD_LENGTH, `Must be between ${min} and ${max} in length.`);
  return false;
}

/** Checks an array's size: BASE_TYPE_MIN_LENGTH / BASE_TYPE_MAX_LENGTH. */
export function checkItemCount(
  items: unknown[],
  min: number,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): boolean {
  if (items.length < min) {
    errors.add(path, ErrorCode.BASE_TYPE_MIN_LENGTH, `Must be ${min} or more in length.`);
    return false;
  }
  return checkMaxItems(items, max, errors, path);
}

/** Checks an array's size: BASE_TYPE_MAX_LENGTH "Must be max or fewer in length.". */
export function checkMaxItems(items: unknown[], max: number, errors: FormErrors, path: ErrorPath): boolean {
  if (items.length <= max) return true;
  errors.add(path, ErrorCode.BASE_TYPE_MAX_LENGTH, `Must be ${max} or fewer in length.`);
  return false;
}

/** BASE_TYPE_CHOICES for an enum value: "Value must be one of (1, 2, 3).". */
export function addChoicesError(
  allowed: readonly (string | number)[],
  errors: FormErrors,
  path: ErrorPath,
): void {
  const list = allowed.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ');
  errors.add(path, ErrorCode.BASE_TYPE_CHOICES, `Value must be one of (${list}).`);
}

/**
 * Reads a set of enum values (`contexts`, `integration_types`, `channel_types`, event
 * names): a list whose items each are allowed (BASE_TYPE_CHOICES at the index) and appear
 * once (SET_TYPE_ALREADY_CONTAINS_VALUE at the repeat).
 */
export function readEnumSet<T extends string | number>(
  value: unknown,
  allowed: readonly T[],
  errors: FormErrors,
  path: ErrorPath,
): T[] | undefined {
  const list = readList(value, errors, path);
  if (!list) return undefined;
  const before = errors.count;
  const result: T[] = [];
  list.forEach((item, index) => {
    const itemPath = [...path, index];
    const typed =
      typeof allowed[0] === 'number'
        ? readInteger(item, errors, itemPath)
        : readString(item, errors, itemPath);
    if (typed === undefined) return;
    if (!(allowed as readonly (string | number)[]).includes(typed)) {
      addChoicesError(allowed, errors, itemPath);
      return;
    }
    if ((result as (string | number)[]).includes(typed)) {
      errors.add(itemPath, ErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE, 'The set already contains this value');
      return;
    }
    result.push(typed as T);
  });
  return errors.count === before ? result : undefined;
}

/**
 * The snowflakes of a list already read (its length is the caller's rule): each checked
 * (readSnowflake) and kept once, a repeat refused with SET_TYPE_ALREADY_CONTAINS_VALUE at
 * its index (`exempt_roles`, `allowed_mentions.users`, `recipients`).
 */
export function readSnowflakeSet(list: readonly unknown[], errors: FormErrors, path: ErrorPath): string[] {
  const ids = new Set<string>();
  list.forEach((item, index) => {
    const id = readSnowflake(item, errors, [...path, index]);
    if (id === undefined) return;
    if (ids.has(id)) {
      errors.add(
        [...path, index],
        ErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE,
        'The set already contains this value',
      );
      return;
    }
    ids.add(id);
  });
  return [...ids];
}
