import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { oauth2BadRequest } from '@acs/discord-errors';
import { RequestTooLargeError } from './read-json-body';
import { readMultipartFields } from './read-multipart-fields';
import { nulFormError } from './refuse-bad-text';

declare module 'express-serve-static-core' {
  interface Request {
    /** The fields of a form body (urlencoded or multipart), each given once. */
    form?: Record<string, string>;
  }
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;

/**
 * Reads the body of an OAuth2 endpoint (RFC 6749 §3.2, §4.1.3): at most `limit` bytes
 * (else 413, as for JSON bodies), `application/x-www-form-urlencoded` or, as Discord also
 * accepts and Oceanic.js sends, `multipart/form-data` (the real service refuses JSON),
 * every parameter at most once (RFC 6749 §3.1). Anything else is 400 `invalid_request`.
 * Leaves the fields in `req.form`.
 */
export function readFormBody(limit: number): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit });
  return [
    (req, res, next) =>
      raw(req, res, (error?: unknown) => {
        if ((error as { type?: string } | undefined)?.type === 'entity.too.large') {
          return next(new RequestTooLargeError(limit));
        }
        next(error ? oauth2BadRequest('invalid_request', 'The request body could not be read.') : undefined);
      }),
    async (req: Request, _res: Response, next: NextFunction) => {
      const buffer = req.body as unknown;
      req.body = undefined;
      const contentType = req.headers['content-type'] ?? '';
      const multipart = MULTIPART_TYPE.test(contentType);
      if (!multipart && !FORM_TYPE.test(contentType)) {
        return next(
          oauth2BadRequest(
            'invalid_request',
            'The body must be application/x-www-form-urlencoded or multipart/form-data.',
          ),
        );
      }
      const form: Record<string, string> = {};
      const body = Buffer.isBuffer(buffer) ? buffer : Buffer.alloc(0);
      const fields = multipart
        ? await readMultipartFields(body, req.headers)
        : new URLSearchParams(body.toString('utf8'));
      for (const [key, value] of fields) {
        if (Object.hasOwn(form, key)) {
          return next(oauth2BadRequest('invalid_request', `Parameter "${key.slice(0, 64)}" is repeated.`));
        }
        form[key] = value;
      }
      req.form = form;
      next(nulFormError(form));
    },
  ];
}
