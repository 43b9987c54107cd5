import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { oauth2BadRequest } from '@acs/discord-errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** The fields of an `application/x-www-form-urlencoded` body, each given once. */
    form?: Record<string, string>;
  }
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * Reads the body of an OAuth2 endpoint (RFC 6749 §3.2, §4.1.3): at most `limit` bytes,
 * `application/x-www-form-urlencoded` only (the real service refuses JSON), every
 * parameter at most once (RFC 6749 §3.1). Anything else is 400 `invalid_request`. Leaves
 * the fields in `req.form`.
 */
export function readFormBody(limit: number): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit });
  return [
    (req, res, next) =>
      raw(req, res, (error?: unknown) =>
        next(error ? oauth2BadRequest('invalid_request', 'The request body could not be read.') : undefined),
      ),
    (req: Request, _res: Response, next: NextFunction) => {
      const buffer = req.body as unknown;
      req.body = undefined;
      if (!FORM_TYPE.test(req.headers['content-type'] ?? '')) {
        return next(
          oauth2BadRequest('invalid_request', 'The body must be application/x-www-form-urlencoded.'),
        );
      }
      const form: Record<string, string> = {};
      const text = Buffer.isBuffer(buffer) ? buffer.toString('utf8') : '';
      for (const [key, value] of new URLSearchParams(text)) {
        if (Object.hasOwn(form, key)) {
          return next(oauth2BadRequest('invalid_request', `Parameter "${key.slice(0, 64)}" is repeated.`));
        }
        form[key] = value;
      }
      req.form = form;
      next();
    },
  ];
}
