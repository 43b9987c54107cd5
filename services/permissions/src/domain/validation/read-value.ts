// The JSON readers of @acs/validation, and the field readers the admin bodies here use.
import {
  addRequired,
  checkRange,
  getField,
  isLengthWithin,
  isAbsent,
  readInteger,
  readString,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';
import { BaseErrorCode } from '@acs/discord-errors';

export {
  addChoicesError,
  addRequired,
  describeValue,
  getField,
  isJsonObject,
  readInteger,
  readList,
  readModel,
  readSnowflake,
  type JsonObject,
} from '@acs/validation';

/**
 * A string whose length in code points is within [min, max], or BASE_TYPE_STRING /
 * BASE_TYPE_BAD_LENGTH "Must be between min and max in length.".
 */
export function readText(
  value: unknown,
  min: number,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  const text = readString(value, errors, path);
  if (text === undefined) return undefined;
  if (!isLengthWithin(text, min, max)) {
    errors.add(path, BaseErrorCode.BASE_TYPE_BAD_LENGTH, `Must be between ${min} and ${max} in length.`);
    return undefined;
  }
  return text;
}

/** An integer within [min, max], or NUMBER_TYPE_COERCE / NUMBER_TYPE_MIN / NUMBER_TYPE_MAX. */
export function readIntegerInRange(
  value: unknown,
  min: number,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): number | undefined {
  const n = readInteger(value, errors, path);
  return n !== undefined && checkRange(n, min, max, 'int', errors, path) ? n : undefined;
}

/** Reads one value at `path`; records errors there and returns undefined on failure. */
export type Reader<T> = (value: unknown, errors: FormErrors, path: ErrorPath) => T | undefined;

/** A required field of the object at `at`: BASE_TYPE_REQUIRED when missing or null, else `read`. */
export function readRequired<T>(
  object: JsonObject,
  key: string,
  errors: FormErrors,
  read: Reader<T>,
  at: ErrorPath = [],
): T | undefined {
  const value = getField(object, key);
  if (isAbsent(value)) {
    addRequired(errors, [...at, key]);
    return undefined;
  }
  return read(value, errors, [...at, key]);
}

/** An optional field: undefined when missing or null (the API treats both as "not given"), else `read`. */
export function readOptional<T>(
  object: JsonObject,
  key: string,
  errors: FormErrors,
  read: Reader<T>,
  at: ErrorPath = [],
): T | undefined {
  const value = getField(object, key);
  return isAbsent(value) ? undefined : read(value, errors, [...at, key]);
}

/** A reader of text with the given length bounds. */
export function textReader(min: number, max: number): Reader<string> {
  return (value, errors, path) => readText(value, min, max, errors, path);
}
