import { ErrorCode } from './error-codes';
import type { ErrorPath, FormErrors } from '@acs/validation';
import { MAX_URL_LENGTH } from './limits';
import { checkLength, readString } from './read-value';

/** `web`: an endpoint we will call (http/https only); `redirect`: an OAuth2 redirect URI. */
export type UrlKind = 'web' | 'redirect';

const WEB_SCHEMES = ['http', 'https'];
// Schemes that run code or read local data where a browser lands; never a redirect target.
const FORBIDDEN_REDIRECT_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'file', 'blob', 'about']);

/**
 * An absolute URL, stored exactly as given (redirect URIs are later compared by exact
 * string match, RFC 9700 §4.1.3). Endpoints must be http(s); redirect URIs may use a
 * native app's own scheme but never carry a fragment (RFC 6749 §3.1.2).
 */
export function readUrl(
  value: unknown,
  kind: UrlKind,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  const text = readString(value, errors, path);
  if (text === undefined || !checkLength(text, 0, MAX_URL_LENGTH, errors, path)) return undefined;
  const url = parseAbsoluteUrl(text);
  if (!url) {
    errors.add(path, ErrorCode.URL_TYPE_INVALID_URL, 'Not a well formed URL.');
    return undefined;
  }
  const scheme = url.protocol.slice(0, -1);
  if (kind === 'web' && !WEB_SCHEMES.includes(scheme)) {
    errors.add(
      path,
      ErrorCode.URL_TYPE_INVALID_SCHEME,
      `Scheme "${scheme}" is not supported. Scheme must be one of ('http', 'https').`,
    );
    return undefined;
  }
  if (kind === 'redirect' && FORBIDDEN_REDIRECT_SCHEMES.has(scheme)) {
    errors.add(path, ErrorCode.URL_TYPE_INVALID_SCHEME, `Scheme "${scheme}" is not supported.`);
    return undefined;
  }
  if (kind === 'redirect' && text.includes('#')) {
    errors.add(path, ErrorCode.URL_TYPE_FRAGMENT_NOT_ALLOWED, 'A redirect URI must not contain a fragment.');
    return undefined;
  }
  return text;
}

function parseAbsoluteUrl(text: string): URL | undefined {
  if (text.trim() !== text || /\s/.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  // Hierarchical web URLs need a host; `http:foo` parses but is not a usable address.
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === '') return undefined;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) return undefined;
  return url;
}
