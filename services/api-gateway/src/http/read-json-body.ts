import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { DiscordError, InvalidFormBodyError, MalformedJsonError } from '@acs/discord-errors';
import { nulBodyError } from './refuse-nul';

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
/** A `\uD800`-`\uDFFF` escape: the only way JSON text can carry a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A surrogate without its pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Deepest nesting a body may have. Real bodies stay under 10 levels (a command's options
 * nest three deep); JSON.parse takes any depth, but every recursive walk after it would
 * overflow the stack on a few hundred thousand levels.
 */
const MAX_DEPTH = 64;

/** Whether JSON text nests arrays and objects deeper than `max` (strings skipped). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Whether every string (keys included) is well-formed Unicode. A lone surrogate is valid
 * JSON but not text: it cannot be stored or encoded as UTF-8, so such a body is refused
 * as malformed rather than reaching a database that would fail on it.
 */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).every(([key, item]) => !LONE_SURROGATE.test(key) && wellFormed(item));
  }
  return true;
}

/**
 * Reads the body of a write request once: at most `limit` bytes (else 413), JSON only
 * (else 50035 CONTENT_TYPE_INVALID), well-formed JSON of well-formed text nested at most 64 deep (else 50109),
 * no U+0000 in any string or key (else 50035 at its path). Leaves the text in
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
        if (nestsDeeperThan(text, MAX_DEPTH)) return next(new MalformedJsonError());
        req.body = JSON.parse(text);
      } catch {
        return next(new MalformedJsonError());
      }
      if (SURROGATE_ESCAPE.test(text) && !wellFormed(req.body)) {
        req.body = undefined;
        return next(new MalformedJsonError());
      }
      const nul = nulBodyError(req.body, text);
      if (nul) {
        req.body = undefined;
        return next(nul);
      }
      req.rawBody = text;
      next();
    },
  ];
}
