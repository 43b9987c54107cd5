// Text is checked at the edge, before any service spends a cycle on it. U+0000 is refused
// wherever it comes in (a body, a form or a query string; a value or a key): PostgreSQL's
// text and jsonb cannot store it, and the services refuse it again in their own readers
// (@acs/validation `readString`). A body's numbers as text are also bounded in length.
import type { NextFunction, Request, Response } from 'express';
import {
  BaseErrorCode,
  oauth2BadRequest,
  type InvalidFormBodyError,
  type OAuth2Error,
} from '@acs/discord-errors';
import { collectTextErrors, FormErrors, hasNul } from '@acs/validation';
import { findLongNumberText } from './find-long-number-text';

/**
 * The most digits a decimal integer sent as text may have. Ids and bit sets take at most
 * 20, and no free-text field 8192 characters, so a longer one (a megabyte of digits for a
 * bit set, say) is no field's value: it is refused here at its path (BASE_TYPE_MAX_LENGTH)
 * and never costs a service its parsing and validation.
 */
export const MAX_NUMBER_TEXT_LENGTH = 8192;

function tooLong(path: (string | number)[]): InvalidFormBodyError {
  const errors = new FormErrors();
  errors.add(
    path,
    BaseErrorCode.BASE_TYPE_MAX_LENGTH,
    `Must be ${MAX_NUMBER_TEXT_LENGTH} or fewer in length.`,
  );
  return errors.toError();
}

/**
 * 400 / 50035 BASE_TYPE_MAX_LENGTH at a number as text too long for any field, found in
 * a raw body before it is decoded (a scan for quotes), or undefined: a megabyte of digits
 * costs a memchr, not a decode.
 */
export function overlongBodyError(bytes: Buffer): InvalidFormBodyError | undefined {
  const path = findLongNumberText(bytes, MAX_NUMBER_TEXT_LENGTH);
  return path === undefined ? undefined : tooLong(path);
}

/**
 * 400 / 50035 at every string or key of a parsed body with U+0000, or that is a number as
 * text longer than MAX_NUMBER_TEXT_LENGTH; undefined when there is none.
 */
export function bodyTextError(body: unknown): InvalidFormBodyError | undefined {
  const errors = new FormErrors();
  collectTextErrors(body, errors, MAX_NUMBER_TEXT_LENGTH);
  return errors.isEmpty() ? undefined : errors.toError();
}

/** The OAuth2 answer (400 `invalid_request`) to a form parameter whose name or value holds U+0000, or undefined. */
export function nulFormError(form: Readonly<Record<string, string>>): OAuth2Error | undefined {
  for (const [key, value] of Object.entries(form)) {
    if (hasNul(key)) return oauth2BadRequest('invalid_request', 'A parameter name contains U+0000.');
    if (hasNul(value)) {
      return oauth2BadRequest('invalid_request', `Parameter "${key.slice(0, 64)}" contains U+0000.`);
    }
  }
  return undefined;
}

/** Middleware: 400 / 50035 at the parameter when a query string holds U+0000 (`%00`). */
export function refuseNulQuery(req: Request, _res: Response, next: NextFunction): void {
  if (!req.url.includes('%00')) return next();
  const errors = new FormErrors();
  collectTextErrors(req.query, errors);
  next(errors.isEmpty() ? undefined : errors.toError());
}
