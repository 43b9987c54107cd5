import { invalidClientError, oauth2BadRequest } from '@acs/discord-errors';

/** How a client authenticated at the token endpoints, and as whom. */
export interface ClientAuthentication {
  clientId: string;
  clientSecret: string;
  /** HTTP Basic, `client_secret` in the form, or none (a public client: its id alone). */
  method: 'basic' | 'post' | 'none';
}

const BASIC = /^basic\s+(\S+)\s*$/i;

/** Decodes one half of Basic credentials (RFC 6749 §2.3.1: form-urlencoded, then base64). */
function decodeCredential(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw invalidClientError();
  }
}

/**
 * Reads client authentication (RFC 6749 §2.3.1) from a token or revocation request's
 * Authorization header and form: HTTP Basic, or `client_id` and `client_secret` form
 * fields, never both (`invalid_request`); no client id at all is 401 `invalid_client`.
 * Returns the client and the form without its credentials.
 */
export function readClientAuthentication(
  authorization: string | undefined,
  form: Record<string, string>,
): { client: ClientAuthentication; params: Record<string, string> } {
  const { client_id: formId, client_secret: formSecret, ...params } = form;
  const basic = BASIC.exec(authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClientError();
    const clientId = decodeCredential(decoded.slice(0, colon));
    if (formSecret !== undefined) {
      throw oauth2BadRequest('invalid_request', 'Use one client authentication method, not several.');
    }
    if (formId !== undefined && formId !== clientId) {
      throw oauth2BadRequest('invalid_request', 'The client_id differs from the authenticated client.');
    }
    return {
      client: { clientId, clientSecret: decodeCredential(decoded.slice(colon + 1)), method: 'basic' },
      params,
    };
  }
  if (formId === undefined || formId === '') throw invalidClientError('Client authentication is required.');
  return {
    client: {
      clientId: formId,
      clientSecret: formSecret ?? '',
      method: formSecret === undefined ? 'none' : 'post',
    },
    params,
  };
}
