// U+0000 is refused at the edge: PostgreSQL's text and jsonb cannot store it, so a body,
// form or query string that holds one (in a value or a key) never reaches a service. The
// services refuse it again in their own string readers (@acs/validation `readString`).
import type { NextFunction, Request, Response } from 'express';
import { oauth2BadRequest, type InvalidFormBodyError, type OAuth2Error } from '@acs/discord-errors';
import { collectNulErrors, FormErrors, hasNul } from '@acs/validation';

/** 400 / 50035 STRING_TYPE_NUL_CHARACTER at the path of every field that holds U+0000, or undefined. */
function nulErrors(value: unknown): InvalidFormBodyError | undefined {
  const errors = new FormErrors();
  collectNulErrors(value, errors);
  return errors.isEmpty() ? undefined : errors.toError();
}

/**
 * The answer to a parsed JSON body with U+0000 in a string or key, or undefined. JSON text
 * can carry U+0000 only as the escape `\u0000` (raw control characters are not JSON), so
 * a body without that text is passed without a walk.
 */
export function nulBodyError(body: unknown, text: string): InvalidFormBodyError | undefined {
  return text.includes('\\u0000') ? nulErrors(body) : undefined;
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
  next(req.url.includes('%00') ? nulErrors(req.query) : undefined);
}
