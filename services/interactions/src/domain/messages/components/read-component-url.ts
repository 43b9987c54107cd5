import { checkLength, readString, type ErrorPath, type FormErrors } from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';

/** A URL's scheme and the rest, as Discord's URL type reads it. */
const URL_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/\S+$/;

/**
 * A URL of at most `max` characters whose scheme is one of `schemes` (link buttons: http,
 * https, discord; media: http, https, attachment). `attachment://name` names a file of the
 * message: only its form is checked here (URL_TYPE_INVALID_URL, URL_TYPE_INVALID_SCHEME).
 */
export function readComponentUrl(
  raw: unknown,
  schemes: readonly string[],
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  const text = readString(raw, errors, path);
  if (text === undefined || !checkLength(text, 1, max, errors, path)) return undefined;
  const match = URL_SHAPE.exec(text);
  const scheme = match?.[1]?.toLowerCase();
  if (scheme === undefined || (scheme !== 'attachment' && !URL.canParse(text))) {
    errors.add(path, ErrorCode.URL_TYPE_INVALID_URL, 'Not a well formed URL.');
    return undefined;
  }
  if (!schemes.includes(scheme)) {
    errors.add(
      path,
      ErrorCode.URL_TYPE_INVALID_SCHEME,
      `Scheme "${scheme}" is not supported. Scheme must be one of (${schemes.map((s) => `'${s}'`).join(', ')}).`,
    );
    return undefined;
  }
  return text;
}

/** Whether a URL names one of the message's attachments (`attachment://<filename>`). */
export function isAttachmentUrl(url: string): boolean {
  return /^attachment:\/\//i.test(url);
}
