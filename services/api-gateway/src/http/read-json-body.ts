import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { DiscordError, InvalidFormBodyError, MalformedJsonError } from '@acs/discord-errors';
import { clientOf } from './client-of';
import { FairWorkQueue } from './fair-work-queue';
import { PacedTurns, TurnTooFarError } from './paced-turns';
import { formKindOf, readFormPayload } from './read-form-payload';
import { markRateLimited } from './rate-limiter';
import { bodyTextError, overlongBodyError } from './refuse-bad-text';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request body as received (UTF-8), forwarded to services without re-encoding. */
    rawBody?: string;
    /** Whether the route also takes its JSON body as a form's `payload_json` (acceptFormPayload). */
    acceptsFormPayload?: boolean;
  }
}

/**
 * Marks a route whose JSON body may also come as `payload_json` in an
 * `application/x-www-form-urlencoded` or `multipart/form-data` form (interaction
 * responses and messages); goes before readJsonBody's handlers, which read it then.
 */
export function acceptFormPayload(req: Request, _res: Response, next: NextFunction): void {
  req.acceptsFormPayload = true;
  next();
}

/** 413 with Discord's code for an oversize body. */
export class RequestTooLargeError extends DiscordError {
  constructor(limit: number) {
    super(413, 40005, `Request entity too large (the limit is ${limit} bytes)`);
  }
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** The content types a route marked with acceptFormPayload takes, as CONTENT_TYPE_INVALID lists them. */
const FORM_PAYLOAD_TYPES = `'application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'`;
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
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i < 0) return false; // unterminated: JSON.parse reports it
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Where the string opened by the quote at `start` ends (its closing quote), or -1. Quotes
 * are found with indexOf, a native scan, so a long string costs little; a quote preceded
 * by an odd run of backslashes is escaped.
 */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote > 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
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

/** Bodies at least this large are read one at a time per client and decoded in turns; smaller ones at once. */
export const QUEUED_BODY_BYTES = 64 * 1024;

/**
 * The longest a large body waits for its client's turn: beyond it the client is answered
 * 429 with the wait as `retry_after`, well within the request's deadline budget and
 * Node's request timeout.
 */
export const MAX_TURN_WAIT_MS = 5000;

/** The size a request announces (Content-Length), or `limit` when it announces none. */
function announcedBytes(req: Request, limit: number): number {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length >= 0 ? Math.min(length, limit) : limit;
}

/** Whether a request's body may be large: a Content-Length of QUEUED_BODY_BYTES or more, or none (chunked). */
function mayBeLarge(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length === undefined) return req.headers['transfer-encoding'] !== undefined;
  return Number(length) >= QUEUED_BODY_BYTES;
}

/**
 * Decodes a JSON body: well-formed JSON of well-formed text nested at most 64 deep (else
 * 50109), no U+0000 in any string or key and no number as text over MAX_NUMBER_TEXT_LENGTH (else 50035
 * at its path).
 */
export function decodeJsonBody(buffer: Buffer): { text: string; body: unknown } {
  const text = buffer.toString('utf8');
  let body: unknown;
  try {
    if (nestsDeeperThan(text, MAX_DEPTH)) throw new MalformedJsonError();
    body = JSON.parse(text);
  } catch {
    throw new MalformedJsonError();
  }
  if (SURROGATE_ESCAPE.test(text) && !wellFormed(body)) throw new MalformedJsonError();
  const textError = bodyTextError(body);
  if (textError) throw textError;
  return { text, body };
}

/**
 * Reads the body of a write request once: at most `limit` bytes (else 413), JSON only
 * (else 50035 CONTENT_TYPE_INVALID) or, on a route marked with acceptFormPayload, a form
 * whose `payload_json` is the JSON body (readFormPayload), then decoded (decodeJsonBody). Large bodies are read
 * one at a time per client address (the next once this one is answered, and no faster
 * than `largeBodyBytesPerSecond`; 429 when the turn is more than MAX_TURN_WAIT_MS away),
 * checked for a number as text too long for any field before they are decoded, and
 * decoded one per turn of the event loop, taking turns between addresses: a flood of them
 * from one client cannot hold up anyone else's requests. Leaves the text in
 * `req.rawBody` and the value in `req.body`; an empty body leaves both undefined.
 */
export function readJsonBody(limit: number, largeBodyBytesPerSecond = Infinity): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit });
  const queue = new FairWorkQueue();
  const turns = new PacedTurns(largeBodyBytesPerSecond, MAX_TURN_WAIT_MS);
  const read: RequestHandler = (req, res, next) =>
    raw(req, res, (error?: unknown) => {
      if (error) {
        const type = (error as { type?: string }).type;
        if (type === 'entity.too.large') return next(new RequestTooLargeError(limit));
        return next(new MalformedJsonError());
      }
      next();
    });
  return [
    (req, res, next) => {
      if (!mayBeLarge(req)) return read(req, res, next);
      // A client's large bodies are read one at a time, paced: the next waits for this answer.
      // The turn ends when the answer is done, or at once for a client gone while it waited.
      let closed = false;
      let end: ((bytes: number) => void) | undefined;
      let bytes = limit; // unread (an error): counted as the largest
      res.once('close', () => {
        closed = true;
        end?.(bytes);
      });
      turns.take(clientOf(req.ip) ?? '', announcedBytes(req, limit)).then(
        (release) => {
          if (closed) return release(0);
          end = release;
          read(req, res, (error?: unknown) => {
            if (Buffer.isBuffer(req.body)) bytes = req.body.length;
            next(error);
          });
        },
        (error: unknown) =>
          next(
            error instanceof TurnTooFarError
              ? markRateLimited(res, error.retryAfterMs / 1000, 'user')
              : error,
          ),
      );
    },
    (req: Request, _res: Response, next: NextFunction) => {
      const received = req.body as unknown;
      req.body = undefined;
      if (!Buffer.isBuffer(received) || received.length === 0) return next();
      const contentType = req.headers['content-type'] ?? '';
      const form = req.acceptsFormPayload ? formKindOf(contentType) : undefined;
      if (!form && !JSON_TYPE.test(contentType)) {
        const types = req.acceptsFormPayload ? FORM_PAYLOAD_TYPES : `'application/json'`;
        return next(
          new InvalidFormBodyError({
            _errors: [
              {
                code: 'CONTENT_TYPE_INVALID',
                message: `Expected "Content-Type" header to be one of {${types}}.`,
              },
            ],
          }),
        );
      }
      const done = ({ text, body }: { text: string; body: unknown }) => {
        req.body = body;
        req.rawBody = text;
        next();
      };
      const decode = (buffer: Buffer) => {
        if (buffer.length < QUEUED_BODY_BYTES) {
          let decoded: { text: string; body: unknown };
          try {
            decoded = decodeJsonBody(buffer);
          } catch (error) {
            return next(error);
          }
          return done(decoded);
        }
        const decodeLarge = () => {
          const overlong = overlongBodyError(buffer);
          if (overlong) throw overlong;
          return decodeJsonBody(buffer);
        };
        queue.run(clientOf(req.ip) ?? '', decodeLarge).then(done, next);
      };
      // A form's payload_json is then read as a JSON body is, with the same checks.
      if (form) readFormPayload(received, req.headers, form).then(decode, next);
      else decode(received);
    },
  ];
}
