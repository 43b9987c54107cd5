import { fieldError } from '@acs/discord-errors';
import { ErrorCode } from './error-codes';
import type { ErrorPath, FormErrors } from '@acs/validation';
import { describeValue } from './read-value';

// A bit set is a decimal string (facts: "permissions are serialized as strings"); the
// length bound keeps BigInt parsing of hostile input cheap (2^128 has 39 digits).
const BIT_SET_PATTERN = /^[0-9]{1,40}$/;

/** Parses a permission bit set: a decimal string or a non-negative JSON integer; undefined if neither. */
export function parsePermissionBits(value: unknown): bigint | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value === 'string' && BIT_SET_PATTERN.test(value)) return BigInt(value);
  return undefined;
}

/** A permission bit set, or NUMBER_TYPE_COERCE `Value "x" is not int.`. */
export function readPermissionBits(value: unknown, errors: FormErrors, path: ErrorPath): bigint | undefined {
  const bits = parsePermissionBits(value);
  if (bits === undefined)
    errors.add(path, ErrorCode.NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not int.`);
  return bits;
}

/** A required bit set from an RPC field, or 50035 at `field` (BASE_TYPE_REQUIRED / NUMBER_TYPE_COERCE). */
export function readPermissionsField(field: string, value: string): bigint {
  if (value === '') throw fieldError(field, ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
  const bits = parsePermissionBits(value);
  if (bits === undefined)
    throw fieldError(field, ErrorCode.NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not int.`);
  return bits;
}
