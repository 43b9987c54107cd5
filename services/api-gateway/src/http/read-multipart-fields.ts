import type { IncomingHttpHeaders } from 'node:http';
import busboy from 'busboy';
import { oauth2BadRequest } from '@acs/discord-errors';

/** Most parts a form may have: the token endpoint takes a handful of fields. */
const MAX_PARTS = 50;

/**
 * The fields of a `multipart/form-data` body (RFC 7578), read whole beforehand within the
 * size limit, in their order (repeats included, for the caller to refuse): what
 * Oceanic.js sends to the token endpoint, and Discord accepts. Parsed by busboy. A file
 * part, too many parts or a malformed body is 400
 * `invalid_request`.
 */
export function readMultipartFields(
  body: Buffer,
  headers: IncomingHttpHeaders,
): Promise<Array<[string, string]>> {
  const refuse = (why: string) => oauth2BadRequest('invalid_request', `The multipart body ${why}.`);
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        limits: { fieldSize: body.length, files: 0, parts: MAX_PARTS },
      });
    } catch {
      return reject(refuse('has no boundary'));
    }
    const fields: Array<[string, string]> = [];
    let failure: Error | undefined;
    const fail = (error: Error) => (failure ??= error);
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(refuse('has a field too long'));
      else fields.push([name, value]);
    });
    parser.on('file', (_name, stream) => {
      stream.resume();
      fail(refuse('carries a file'));
    });
    parser.on('filesLimit', () => fail(refuse('carries a file')));
    parser.on('partsLimit', () => fail(refuse(`has more than ${MAX_PARTS} parts`)));
    // A promise settles once: whichever of these comes first decides.
    parser.on('error', () => reject(failure ?? refuse('is malformed')));
    parser.on('close', () => (failure ? reject(failure) : resolve(fields)));
    parser.end(body);
  });
}
