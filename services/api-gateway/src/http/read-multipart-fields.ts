import type { IncomingHttpHeaders } from 'node:http';
import busboy from 'busboy';
import { oauth2BadRequest } from '@acs/discord-errors';

/** Most parts a form may have: the token endpoint takes a handful of fields, a message payload one. */
const MAX_PARTS = 50;

/** The errors a multipart body is refused with, in the format of the route that reads it. */
export interface MultipartRefusals {
  /** A body that is no well-formed form; `why` says how ("has no boundary"). */
  malformed(why: string): Error;
  /** A body with a file part. */
  file(): Error;
}

/** The token endpoint's refusals: RFC 6749 `invalid_request`. */
const OAUTH2_REFUSALS: MultipartRefusals = {
  malformed: (why) => oauth2BadRequest('invalid_request', `The multipart body ${why}.`),
  file: () => oauth2BadRequest('invalid_request', 'The multipart body carries a file.'),
};

/**
 * The fields of a `multipart/form-data` body (RFC 7578), read whole beforehand within the
 * size limit, in their order (repeats included, for the caller to refuse): what
 * Oceanic.js sends to the token endpoint, and Discord accepts. Parsed by busboy. A file
 * part, too many parts or a malformed body is refused with `refusals`' errors (the token
 * endpoint's `invalid_request` by default).
 */
export function readMultipartFields(
  body: Buffer,
  headers: IncomingHttpHeaders,
  refusals: MultipartRefusals = OAUTH2_REFUSALS,
): Promise<Array<[string, string]>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        limits: { fieldSize: body.length, files: 0, parts: MAX_PARTS },
      });
    } catch {
      return reject(refusals.malformed('has no boundary'));
    }
    const fields: Array<[string, string]> = [];
    let failure: Error | undefined;
    const fail = (error: Error) => (failure ??= error);
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(refusals.malformed('has a field too long'));
      else fields.push([name, value]);
    });
    parser.on('file', (_name, stream) => {
      stream.resume();
      fail(refusals.file());
    });
    parser.on('filesLimit', () => fail(refusals.file()));
    parser.on('partsLimit', () => fail(refusals.malformed(`has more than ${MAX_PARTS} parts`)));
    // A promise settles once: whichever of these comes first decides.
    parser.on('error', () => reject(failure ?? refusals.malformed('is malformed')));
    parser.on('close', () => (failure ? reject(failure) : resolve(fields)));
    parser.end(body);
  });
}
