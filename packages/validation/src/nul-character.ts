// U+0000 in text: valid JSON (`\u0000`) and valid UTF-8, but PostgreSQL's text and jsonb
// cannot store it, so a string or key that holds one is refused wherever it comes in.
import { BaseErrorCode as ErrorCode } from '@acs/discord-errors';
import type { ErrorPath, FormErrors } from './form-errors';

/** Whether text holds U+0000. */
export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/** Records STRING_TYPE_NUL_CHARACTER at `path`. */
export function addNulError(errors: FormErrors, path: ErrorPath): void {
  errors.add(path, ErrorCode.STRING_TYPE_NUL_CHARACTER, 'Text cannot contain the NUL character (U+0000).');
}

/** A decimal integer as text: what ids, bit sets and numbers sent as strings are. */
const INTEGER_TEXT = /^-?[0-9]+$/;

/**
 * Records, at the path of every string and of every object key of a parsed JSON value,
 * STRING_TYPE_NUL_CHARACTER when it holds U+0000 (a key's error sits at the key's own path,
 * as a bad localization key's does), and BASE_TYPE_MAX_LENGTH when it is a decimal integer
 * longer than `maxDigits`. One pass over the value, with one shared path.
 */
export function collectTextErrors(value: unknown, errors: FormErrors, maxDigits = Infinity): void {
  const path: (string | number)[] = [];
  const check = (text: string): boolean => {
    if (hasNul(text)) addNulError(errors, [...path]);
    else if (text.length > maxDigits && INTEGER_TEXT.test(text)) {
      errors.add([...path], ErrorCode.BASE_TYPE_MAX_LENGTH, `Must be ${maxDigits} or fewer in length.`);
    } else return true;
    return false;
  };
  const visit = (item: unknown): void => {
    if (typeof item === 'string') check(item);
    else if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) {
        path.push(index);
        visit(item[index]);
        path.pop();
      }
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        path.push(key);
        if (check(key)) visit(child);
        path.pop();
      }
    }
  };
  visit(value);
}
