import { SocialSdkErrorCode } from '@acs/discord-errors';
import { FormErrors } from '@acs/validation';
import { ErrorCode } from './error-codes';
import { ProvisionalAccountError, MAX_EXTERNAL_USER_ID_LENGTH } from './provisional-accounts';
import { checkLength, getField, isAbsent, addRequired, readString, type JsonObject } from './read-value';

// OpenID Connect identity providers (facts A.2, PA:identity-providers.mdx): an application
// names an issuer; the External Credentials Exchange verifies an ID token of it against the
// issuer's discovery document and JWKS. These are the pure rules: the issuer URL, what the
// two documents must hold, and the claims' checks with their 5300xx codes. Fetching and
// signature verification are the OIDC client's (clients/oidc-issuers.ts).

/** The JWS algorithms an ID token may be signed with (facts A.2: RSA, ECDSA, RSA-PSS; never HS*). */
export const OIDC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
] as const;

/** `iat` may be at most this old (facts A.2: "within the last 7 days"; 530004). */
export const MAX_ID_TOKEN_AGE_SECONDS = 7 * 24 * 3600;

/** [Inf] Clock skew allowed for `exp` and an `iat` in the future: one minute. */
export const CLOCK_SKEW_SECONDS = 60;

/** An issuer URL's length bound ([Inf]; a URL, like the admin API's other URLs). */
const MAX_ISSUER_LENGTH = 2048;

/** An OIDC provider as configured: its issuer, and the audience ID tokens must name (null: the client id). */
export interface OidcProvider {
  issuer: string;
  audience: string | null;
}

/** What a verified ID token proves: the player (`sub`) and the name a new account gets. */
export interface OidcIdentity {
  subject: string;
  preferredUsername: string | null;
}

/** The host suffixes Discord refuses in an issuer (facts A.2). */
const PRIVATE_SUFFIXES = ['.local', '.arpa', '.internal', '.localhost'];

/**
 * Why an issuer URL is refused, or null when it is acceptable (facts A.2, CL 2026-04-22):
 * https, no query, fragment or credentials, a host of at least two labels that is not an IP
 * literal nor ends in `.local`, `.arpa`, `.internal` or `.localhost`; any port. With
 * `allowLoopback` (the local stack's test setting) `http://127.0.0.1:<port>` issuers are
 * accepted too, so that a test can run its own issuer.
 */
export function issuerRefusal(issuer: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'The issuer is not a valid URL.';
  }
  if (url.search || issuer.includes('?') || url.hash || issuer.includes('#')) {
    return 'The issuer must not have a query or a fragment.';
  }
  if (url.username || url.password) return 'The issuer must not carry credentials.';
  if (allowLoopback && url.protocol === 'http:' && url.hostname === '127.0.0.1') return null;
  if (url.protocol !== 'https:') return 'The issuer must be an https URL.';
  const host = url.hostname.toLowerCase();
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) return 'The issuer must not be an IP address.';
  const labels = host.split('.').filter((label) => label !== '');
  if (labels.length < 2) return 'The issuer’s host needs at least two labels.';
  if (PRIVATE_SUFFIXES.some((suffix) => `.${labels.join('.')}`.endsWith(suffix))) {
    return 'The issuer’s host must be a public name.';
  }
  return null;
}

/**
 * Validates `PUT /admin/applications/{id}/identity-providers/OIDC`: `issuer` (required, a
 * URL `issuerRefusal` accepts) and `audience?` (1-1024 characters or null: the client id).
 */
export function validateOidcProvider(body: JsonObject, allowLoopback: boolean): OidcProvider {
  const errors = new FormErrors();
  let issuer = '';
  const rawIssuer = getField(body, 'issuer');
  if (isAbsent(rawIssuer)) addRequired(errors, ['issuer']);
  else {
    const text = readString(rawIssuer, errors, ['issuer']);
    if (text !== undefined && checkLength(text, 1, MAX_ISSUER_LENGTH, errors, ['issuer'])) {
      const refusal = issuerRefusal(text, allowLoopback);
      if (refusal) errors.add(['issuer'], ErrorCode.URL_TYPE_INVALID_URL, refusal);
      else issuer = text;
    }
  }
  let audience: string | null = null;
  const rawAudience = getField(body, 'audience');
  if (!isAbsent(rawAudience)) {
    const text = readString(rawAudience, errors, ['audience']);
    if (text !== undefined && checkLength(text, 1, 1024, errors, ['audience'])) audience = text;
  }
  errors.throwIfAny();
  return { issuer, audience };
}

/** The admin API's answer for an OIDC provider. */
export function renderOidcProvider(provider: OidcProvider): Record<string, unknown> {
  return {
    external_auth_type: 'OIDC',
    issuer: provider.issuer,
    audience: provider.audience,
    test_issuer: false,
  };
}

/** Where the discovery document is: `{issuer}/.well-known/openid-configuration` (a trailing `/` dropped). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

/** 530008: the discovery document cannot be used (missing, not a JSON object, redirecting, wrong). */
export function discoveryError(): ProvisionalAccountError {
  return new ProvisionalAccountError(
    SocialSdkErrorCode.DISCOVERY_DOCUMENT_NOT_FOUND,
    'OIDC discovery document not found',
  );
}

/** 530009: the JWKS cannot be fetched or used. */
export function jwksError(): ProvisionalAccountError {
  return new ProvisionalAccountError(SocialSdkErrorCode.JWKS_UNREACHABLE, 'OIDC JWKS not reachable');
}

/** 530020: the ID token is not a valid JWT of the issuer (format, algorithm, key, signature, claims). */
export function invalidJwtError(): ProvisionalAccountError {
  return new ProvisionalAccountError(SocialSdkErrorCode.INVALID_JWT, 'Invalid JWT');
}

/** Parses a JSON object, or undefined. */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The discovery document's `jwks_uri` (facts A.2): the body must be a JSON object whose
 * `issuer` equals the configured issuer, whose `jwks_uri` is https (or, under the test
 * setting, on `http://127.0.0.1`), and whose `id_token_signing_alg_values_supported`
 * names at least one supported algorithm (when present; unsupported entries are ignored).
 * Anything else is 530008.
 */
export function readDiscoveryDocument(text: string, issuer: string, allowLoopback: boolean): string {
  const document = parseObject(text);
  if (!document || document.issuer !== issuer) throw discoveryError();
  const jwksUri = document.jwks_uri;
  if (typeof jwksUri !== 'string') throw discoveryError();
  let url: URL;
  try {
    url = new URL(jwksUri);
  } catch {
    throw discoveryError();
  }
  const loopback = allowLoopback && url.protocol === 'http:' && url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !loopback) throw discoveryError();
  const algorithms = document.id_token_signing_alg_values_supported;
  if (algorithms !== undefined) {
    if (
      !Array.isArray(algorithms) ||
      !algorithms.some((alg) => (OIDC_ALGORITHMS as readonly unknown[]).includes(alg))
    ) {
      throw discoveryError();
    }
  }
  return jwksUri;
}

/** A JSON Web Key Set: `{keys: [...]}`; anything else is 530009. */
export function readJwks(text: string): { keys: Record<string, unknown>[] } {
  const document = parseObject(text);
  const keys = document?.keys;
  if (!Array.isArray(keys) || !keys.every((key) => key !== null && typeof key === 'object')) {
    throw jwksError();
  }
  return { keys: keys as Record<string, unknown>[] };
}

/**
 * The header's checks before any fetch: a supported algorithm (else 530020) and a `kid`
 * (else 530027). Answers the `kid`.
 */
export function checkIdTokenHeader(header: Record<string, unknown>): string {
  if (!(OIDC_ALGORITHMS as readonly unknown[]).includes(header.alg)) throw invalidJwtError();
  const kid = header.kid;
  if (typeof kid !== 'string' || kid === '') {
    throw new ProvisionalAccountError(SocialSdkErrorCode.JWT_MISSING_KID, 'JWT header is missing kid');
  }
  return kid;
}

/**
 * The claims' checks of a token whose signature verified (facts A.2), each with its code:
 * `iss` equals the issuer (530002), `aud` (a string or an array) contains the audience
 * (530003), `exp` present and not passed (530001), `iat` present, not in the future and
 * within the last 7 days (530004), `sub` present and 1-1024 characters (530020).
 * `preferred_username` names a new account when it is 1-32 characters; otherwise it is
 * ignored ([Inf]: the facts make it optional).
 */
export function checkIdTokenClaims(
  claims: Record<string, unknown>,
  expected: { issuer: string; audience: string },
  now: Date,
): OidcIdentity {
  if (claims.iss !== expected.issuer) {
    throw new ProvisionalAccountError(SocialSdkErrorCode.ISSUER_MISMATCH, 'ID token issuer mismatch');
  }
  const aud = claims.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.includes(expected.audience)) {
    throw new ProvisionalAccountError(SocialSdkErrorCode.AUDIENCE_MISMATCH, 'ID token audience mismatch');
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_SECONDS <= nowSeconds) {
    throw new ProvisionalAccountError(SocialSdkErrorCode.ID_TOKEN_EXPIRED, 'ID token expired');
  }
  const iat = claims.iat;
  if (
    typeof iat !== 'number' ||
    iat > nowSeconds + CLOCK_SKEW_SECONDS ||
    iat < nowSeconds - MAX_ID_TOKEN_AGE_SECONDS
  ) {
    throw new ProvisionalAccountError(SocialSdkErrorCode.ID_TOKEN_TOO_OLD, 'ID token issued too long ago');
  }
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_EXTERNAL_USER_ID_LENGTH) {
    throw invalidJwtError();
  }
  const name = claims.preferred_username;
  const preferredUsername =
    typeof name === 'string' && [...name].length >= 1 && [...name].length <= 32 && !name.includes('\u0000')
      ? name
      : null;
  return { subject: sub, preferredUsername };
}
