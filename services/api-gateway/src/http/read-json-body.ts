import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { DiscordError, InvalidFormBodyError, MalformedJsonError } from '@acs/service-kit';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request body as received (UTF-8), forwarded to services without re-encoding. */
    rawBody?: string;
  }
}

/** 413 with Discord's code for an oversize body. */
export class RequestTooLargeError extends DiscordError {
  constructor(limit: number) {
    super(413, 40005, `Request entity too large (the limit is ${limit} bytes)`);
  }
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Reads the body of a write request once: at most `limit` bytes (else 413), JSON only
 * (else 50035 CONTENT_TYPE_INVALID), well-formed (else 50109). Leaves the text in
 * `req.rawBody` and the value in `req.body`; an empty body leaves both undefined.
 */
export function readJsonBody(limit: number): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit });
  return [
    (req, res, next) =>
      raw(req, res, (error?: unknown) => {
        if (error) {
          const type = (error as { type?: string }).type;
          if (type === 'entity.too.large') return next(new RequestTooLargeError(limit));
          return next(new MalformedJsonError());
        }
        next();
      }),
    (req: Request, _res: Response, next: NextFunction) => {
      const buffer = req.body as unknown;
      req.body = undefined;
      if (!Buffer.isBuffer(buffer) || buffer.length === 0) return next();
      const contentType = req.headers['content-type'] ?? '';
      if (!JSON_TYPE.test(contentType)) {
        return next(
          new InvalidFormBodyError({
            _errors: [
              {
                code: 'CONTENT_TYPE_INVALID',
                message: `Expected "Content-Type" header to be one of {'application/json'}.`,
              },
            ],
          }),
        );
      }
      const text = buffer.toString('utf8');
      try {
        req.body = JSON.parse(text);
      } catch {
        return next(new MalformedJsonError());
      }
      req.rawBody = text;
      next();
    },
  ];
}
