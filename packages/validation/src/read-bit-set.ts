// Permission bit sets (`permissions`, `default_member_permissions`, overwrite `allow` and
// `deny`): decimal strings, or JSON integers from sloppy clients. The text is bounded
// before any big-number work, so a megabyte of digits costs one linear scan, not a BigInt.
import { BaseErrorCode as ErrorCode } from '@acs/discord-errors';
import { describeValue } from './describe-value';
import { FormErrors, type ErrorPath } from './form-errors';

/**
 * The widest bit set the API takes: 64 bits (20 digits). Discord's flags stop near bit 50;
 * commands and install params are capped lower by their own schema (2^54 − 1).
 */
export const MAX_BIT_SET = (1n << 64n) - 1n;

/** Why a value is no bit set: not an integer, below 0, or above the field's maximum. */
export type BitSetProblem = 'not_int' | 'negative' | 'too_large';

/** Optional sign, digits; one anchored pass. */
const INTEGER_TEXT = /^-?[0-9]+$/;

/** A bit set as a bigint in 0..max, or what is wrong with it. */
export function parseBitSet(value: unknown, max: bigint): bigint | BitSetProblem {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'not_int';
    if (value < 0) return 'negative';
    const bits = BigInt(value);
    return bits > max ? 'too_large' : bits;
  }
  if (typeof value !== 'string' || !INTEGER_TEXT.test(value)) return 'not_int';
  const negative = value.startsWith('-');
  let start = negative ? 1 : 0;
  while (start < value.length - 1 && value.charCodeAt(start) === 0x30) start++;
  const digits = value.slice(start);
  if (negative && digits !== '0') return 'negative';
  // More significant digits than the maximum has: larger, whatever the digits are.
  if (digits.length > max.toString().length) return 'too_large';
  const bits = BigInt(digits);
  return bits > max ? 'too_large' : bits;
}

/**
 * A bit set in 0..max, or NUMBER_TYPE_COERCE `Value "x" is not int.`, NUMBER_TYPE_MIN or
 * NUMBER_TYPE_MAX, Discord's int messages.
 */
export function readBitSet(
  value: unknown,
  max: bigint,
  errors: FormErrors,
  path: ErrorPath,
): bigint | undefined {
  const bits = parseBitSet(value, max);
  if (typeof bits === 'bigint') return bits;
  if (bits === 'not_int') {
    errors.add(path, ErrorCode.NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not int.`);
  } else if (bits === 'negative') {
    errors.add(path, ErrorCode.NUMBER_TYPE_MIN, 'int value should be greater than or equal to 0.');
  } else {
    errors.add(path, ErrorCode.NUMBER_TYPE_MAX, `int value should be less than or equal to ${max}.`);
  }
  return undefined;
}

/** A bit set from an RPC field: BASE_TYPE_REQUIRED when empty, else as readBitSet, thrown as 50035 at `field`. */
export function requireBitSet(field: string, value: string, max: bigint = MAX_BIT_SET): bigint {
  const errors = new FormErrors();
  if (value === '') errors.add([field], ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
  const bits = value === '' ? undefined : readBitSet(value, max, errors, [field]);
  if (bits === undefined) throw errors.toError();
  return bits;
}
