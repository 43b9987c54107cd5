import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import busboy from 'busboy';
import mime from 'mime-types';
import { BlobTooLargeError, type BlobStore } from '@acs/blob-store';
import { BaseErrorCode, DiscordError, fieldError } from '@acs/discord-errors';
import type { UploadedBlob } from '../domain/uploaded-blob';
import { acceptFormPayload, decodeJsonBody, RequestTooLargeError } from './read-json-body';
import { formBodyInvalid, formKindOf } from './read-form-payload';
import { DISCARD_LIMIT_BYTES, discardRestOfBody } from './discard-rest-of-body';

/** Most characters of an attachment's filename (D:resources/message.mdx: 1024). */
const MAX_FILENAME_LENGTH = 1024;

declare module 'express-serve-static-core' {
  interface Request {
    /** A multipart message body's files, already in the blob store (readMessageUpload). */
    uploadedFiles?: UploadedBlob[];
  }
}

/** Most files one message may carry (D §Uploading Files). */
export const MAX_FILES = 10;
/** Most parts a message's multipart body may have: its files, `payload_json`, and room for a few fields. */
const MAX_PARTS = MAX_FILES + 20;
/** Where a multipart body's files go in the blob store: interactions' sweep looks there for orphans. */
export const UPLOADS_PREFIX = 'uploads/';

/** 400 / 30015: more than ten files. */
export class TooManyAttachmentsError extends DiscordError {
  constructor() {
    super(400, 30015, `Maximum number of attachments in a message reached (${MAX_FILES})`);
  }
}

/** A file part's index: `files[n]` (n a small integer); a bare `file` is `files[0]`. */
function fileIndexOf(name: string): number | undefined {
  if (name === 'file') return 0;
  const found = /^files\[(\d{1,9})\]$/.exec(name);
  return found ? Number(found[1]) : undefined;
}

/** A file's media type: its part's, unless that says nothing (`application/octet-stream`), then its extension's. */
export function contentTypeOf(partType: string | undefined, filename: string): string {
  const declared = (partType ?? '').trim().toLowerCase();
  if (declared !== '' && declared !== 'application/octet-stream' && /^[\w.+-]+\/[\w.+-]+/.test(declared)) {
    return declared.slice(0, 255);
  }
  const byName = mime.contentType(filename);
  return byName === false ? 'application/octet-stream' : byName;
}

/** What readMessageUpload needs. */
export interface MessageUploadOptions {
  blobs: BlobStore;
  /** Most bytes `payload_json` may have (the JSON body's limit). */
  maxPayloadBytes: number;
  /**
   * The route's upload limit (the interaction's `attachment_size_limit`), asked before a
   * single file is read: it also checks the route's token, so files are stored only for a live one.
   * With `limitFromPayload`, it is asked with `payload_json`'s text when the first file comes.
   */
  uploadLimit(req: Request, payloadJson?: string): Promise<number>;
  /**
   * The limit depends on the body (the user's modal submit: the modal `data.id` names):
   * `payload_json` must come before the first file (else 50035).
   */
  limitFromPayload?: boolean;
}

/** Runs `handlers` as one handler, each passing to the next. */
function chain(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    const run = (at: number, error?: unknown): void => {
      if (error !== undefined || at === handlers.length) return next(error);
      try {
        void handlers[at]!(req, res, (failure?: unknown) => run(at + 1, failure));
      } catch (failure) {
        next(failure);
      }
    };
    run(0);
  };
}

/**
 * The body of a message route (interaction callback, follow-up, edit): JSON or a
 * urlencoded form by `readBody`, and a `multipart/form-data` body streamed here: each
 * `files[n]` part goes straight into the blob store through a byte counter (never whole
 * in memory), `payload_json` becomes the JSON body (`req.rawBody`), and the stored files
 * are left in `req.uploadedFiles` for the handler to hand to interactions. Refused: a file
 * over the upload limit (413 / 40005: the rest of the body is dropped unstored, and past
 * DISCARD_LIMIT_BYTES answered at once with the connection closed), an eleventh file (400 / 30015), a part
 * named twice or a body that cannot be read (50035), `payload_json` that is no JSON
 * (50109). A refused body leaves no blob behind.
 */
export function readMessageUpload(
  options: MessageUploadOptions,
  readBody: RequestHandler[],
): RequestHandler[] {
  const asBody = chain([acceptFormPayload, ...readBody]);
  return [
    (req, res, next) => {
      if (formKindOf(req.headers['content-type'] ?? '') !== 'multipart') return asBody(req, res, next);
      if (options.limitFromPayload) return streamUpload(req, res, next, options, undefined);
      options.uploadLimit(req).then(
        (limit) => streamUpload(req, res, next, options, limit),
        (error: unknown) => next(error),
      );
    },
  ];
}

function streamUpload(
  req: Request,
  res: Response,
  next: NextFunction,
  { blobs, maxPayloadBytes, uploadLimit }: MessageUploadOptions,
  knownLimit: number | undefined,
): void {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: MAX_FILES, fieldSize: maxPayloadBytes, parts: MAX_PARTS, fileSize: Infinity },
    });
  } catch {
    return next(formBodyInvalid('has no boundary'));
  }
  const stored: UploadedBlob[] = [];
  const writes: Promise<void>[] = [];
  const open = new Set<Readable>();
  const indexes = new Set<number>();
  let payload: string | undefined;
  let failure: unknown;
  let finished = false;
  let limit: Promise<number> | undefined = knownLimit === undefined ? undefined : Promise.resolve(knownLimit);

  // A refused body is answered once the rest of it is read (or given up on: discardRestOfBody); the
  // blobs it stored are deleted once its writes have settled.
  let restOfBody = Promise.resolve();
  const refuse = () => {
    void restOfBody.then(() => next(failure));
    void Promise.allSettled(writes).then(() =>
      deleteBlobs(
        blobs,
        stored.map((file) => file.blobKey),
      ),
    );
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    if (failure !== undefined) return refuse();
    void Promise.allSettled(writes).then(() => {
      if (failure !== undefined) return refuse();
      let decoded;
      try {
        decoded = decodeJsonBody(Buffer.from(payload ?? (stored.length > 0 ? '{}' : ''), 'utf8'));
      } catch (error) {
        failure = error;
        return refuse();
      }
      req.rawBody = decoded.text;
      req.body = decoded.body;
      req.uploadedFiles = stored.sort((a, b) => a.index - b.index);
      next();
    });
  };

  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure = error;
    // Stop storing: the rest of the body is read and dropped, up to DISCARD_LIMIT_BYTES; past
    // that the answer goes at once and the connection closes after it.
    req.unpipe(parser);
    restOfBody = new Promise((resolve) =>
      discardRestOfBody(req, DISCARD_LIMIT_BYTES, (drained) => {
        if (!drained) res.setHeader('Connection', 'close');
        resolve();
      }),
    );
    // Their writes fail and remove what they wrote (their errors are the writes' to report).
    for (const stream of open) stream.destroy();
    finish();
  };

  parser.on('file', (name, stream, info) => {
    const index = fileIndexOf(name);
    if (failure !== undefined) return void stream.resume();
    if (index === undefined) {
      stream.resume();
      return fail(formBodyInvalid(`has a file part named "${name.slice(0, 40)}", not files[n]`));
    }
    if (indexes.has(index)) {
      stream.resume();
      return fail(formBodyInvalid(`has files[${index}] more than once`));
    }
    indexes.add(index);
    if (limit === undefined) {
      // The limit depends on the body: it is asked once, with payload_json, which comes first.
      if (payload === undefined) {
        stream.resume();
        return fail(formBodyInvalid('has a file part before payload_json'));
      }
      limit = uploadLimit(req, payload);
    }
    // The write reports the stream's failures; none may go unhandled before it takes the stream.
    stream.on('error', () => undefined);
    const filename = info.filename && info.filename !== '' ? info.filename : `file${index}`;
    // An attachment's filename is at most 1024 characters: a longer one could never be served.
    if ([...filename].length > MAX_FILENAME_LENGTH) {
      stream.resume();
      return fail(
        fieldError(
          `files[${index}]`,
          BaseErrorCode.BASE_TYPE_MAX_LENGTH,
          `Must be ${MAX_FILENAME_LENGTH} or fewer in length.`,
        ),
      );
    }
    const blobKey = `${UPLOADS_PREFIX}${randomUUID()}`;
    const contentType = contentTypeOf(info.mimeType, filename);
    open.add(stream);
    let maxBytes = 0;
    writes.push(
      limit
        .then((bytes) => {
          maxBytes = bytes;
          if (failure !== undefined) throw failure;
          return blobs.put(blobKey, stream, { contentType, maxBytes });
        })
        .then(
          ({ size }) => {
            open.delete(stream);
            stored.push({ index, blobKey, filename, contentType, size });
          },
          (error: unknown) => {
            open.delete(stream);
            stream.resume();
            fail(error instanceof BlobTooLargeError ? new RequestTooLargeError(maxBytes) : error);
          },
        ),
    );
  });
  parser.on('field', (name, value, info) => {
    if (failure !== undefined) return;
    if (info.valueTruncated) return fail(new RequestTooLargeError(maxPayloadBytes));
    if (name !== 'payload_json') return;
    if (payload !== undefined) return fail(formBodyInvalid('has payload_json more than once'));
    payload = value;
  });
  parser.on('filesLimit', () => fail(new TooManyAttachmentsError()));
  parser.on('partsLimit', () => fail(formBodyInvalid(`has more than ${MAX_PARTS} parts`)));
  parser.on('error', () => fail(formBodyInvalid('is malformed')));
  parser.on('close', () => {
    if (payload === undefined && stored.length === 0 && writes.length === 0 && failure === undefined) {
      failure = fieldError('payload_json', BaseErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
    }
    finish();
  });
  req.on('aborted', () => fail(formBodyInvalid('ended early')));
  req.pipe(parser);
}

/** Deletes blobs this request stored; one that fails to go is left to interactions' sweep. */
export async function deleteBlobs(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => blobs.delete(key)));
}
