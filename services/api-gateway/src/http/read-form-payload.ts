import type { IncomingHttpHeaders } from 'node:http';
import { BaseErrorCode, fieldError, InvalidFormBodyError } from '@acs/discord-errors';
import { readMultipartFields, type MultipartRefusals } from './read-multipart-fields';

/** The two kinds of form a message-like body may come as. */
export type FormKind = 'urlencoded' | 'multipart';

const URLENCODED_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;

/** A part that would carry a file: `files[n]` (D: reference §Uploading Files), or a bare `file`. */
const ATTACHMENT_FIELD = /^(files\[|file$)/;

/**
 * Our names, in the style of Discord's inner codes, for refusals whose real codes are not
 * public: a form that cannot be read, and attachments, which ACS does not store yet.
 */
export const FormErrorCode = {
  FORM_BODY_INVALID: 'FORM_BODY_INVALID',
  ATTACHMENTS_NOT_SUPPORTED: 'ATTACHMENTS_NOT_SUPPORTED',
} as const;

/** 400 / 50035 with a request-level leaf: the form itself cannot be read. */
export function formBodyInvalid(why: string): InvalidFormBodyError {
  return new InvalidFormBodyError({
    _errors: [{ code: FormErrorCode.FORM_BODY_INVALID, message: `The form body ${why}.` }],
  });
}

/** 400 / 50035 at `files`: files are refused outright, never dropped on the floor. */
function attachmentsNotSupported(): InvalidFormBodyError {
  return fieldError(
    'files',
    FormErrorCode.ATTACHMENTS_NOT_SUPPORTED,
    'Attachments are not supported yet: send the body as JSON, or as payload_json without files.',
  );
}

const PAYLOAD_REFUSALS: MultipartRefusals = {
  malformed: formBodyInvalid,
  file: attachmentsNotSupported,
};

/** The form kind of a Content-Type, or undefined for anything else. */
export function formKindOf(contentType: string): FormKind | undefined {
  if (URLENCODED_TYPE.test(contentType)) return 'urlencoded';
  if (MULTIPART_TYPE.test(contentType)) return 'multipart';
  return undefined;
}

/**
 * The JSON text a form carries in `payload_json`, as Discord reads message-like bodies
 * sent as forms (real clients send multipart when they attach files). Its other text
 * fields are not read, as Discord reads the body from `payload_json` alone when it is
 * given. Refused with 400 / 50035: a file part (`files[n]`), at `files`, since
 * attachments are not stored yet; no `payload_json`, at `payload_json` (the form's fields
 * as the body itself would all be strings, which no typed field takes); `payload_json`
 * twice, or a multipart body that cannot be read, at the request level.
 */
export async function readFormPayload(
  body: Buffer,
  headers: IncomingHttpHeaders,
  kind: FormKind,
): Promise<Buffer> {
  const fields =
    kind === 'multipart'
      ? await readMultipartFields(body, headers, PAYLOAD_REFUSALS)
      : new URLSearchParams(body.toString('utf8'));
  let payload: string | undefined;
  for (const [name, value] of fields) {
    if (ATTACHMENT_FIELD.test(name)) throw attachmentsNotSupported();
    if (name !== 'payload_json') continue;
    if (payload !== undefined) throw formBodyInvalid('has payload_json more than once');
    payload = value;
  }
  if (payload === undefined) {
    throw fieldError('payload_json', BaseErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
  }
  return Buffer.from(payload, 'utf8');
}
