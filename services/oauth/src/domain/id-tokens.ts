import { createHash, generateKeyPairSync, sign } from 'node:crypto';

// OpenID Connect ID tokens (facts A.6): both partner-sdk token endpoints and a code
// exchange with `openid` answer an `id_token`, a JWT signed RS256 with a key of the
// deployment, whose public half GET /oauth2/keys publishes (JWKS) and
// /.well-known/openid-configuration describes.

/** The one signing algorithm (facts A.6: Discord signs RS256 and advertises only it). */
export const ID_TOKEN_ALGORITHM = 'RS256';

/** The longest `nonce` an authorization request may carry ([Inf]: like `state`, bounded). */
export const MAX_NONCE_LENGTH = 1024;

/** A signing key of the deployment: its id, its private half, its public half as a JWK. */
export interface IdTokenKey {
  kid: string;
  privateKeyPem: string;
  publicJwk: PublicJwk;
}

/** An RSA public key as the JWKS shows it (OAS `OAuth2Key`). */
export interface PublicJwk {
  kty: 'RSA';
  use: 'sig';
  alg: typeof ID_TOKEN_ALGORITHM;
  kid: string;
  n: string;
  e: string;
}

/** Generates a 2048-bit RSA key, its `kid` the RFC 7638 thumbprint of its public half. */
export function generateIdTokenKey(): IdTokenKey {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
  return {
    kid: thumbprint,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicJwk: { kty: 'RSA', use: 'sig', alg: ID_TOKEN_ALGORITHM, kid: thumbprint, n: jwk.n, e: jwk.e },
  };
}

/** What an ID token says. */
export interface IdTokenSubject {
  /** The deployment's public base URL. */
  issuer: string;
  /** The user the token is for. */
  userId: string;
  /** The application (client) it is issued to. */
  applicationId: string;
  issuedAt: Date;
  lifetimeSeconds: number;
  /** The authorization request's nonce, echoed; null: none was given. */
  nonce: string | null;
}

/**
 * The claims of an ID token (facts A.6, observed on Discord's): `iss`, `sub` (the user id;
 * for a provisional account its own id [Inf]), `aud` an array with the client id, `iat`,
 * `exp` (when the access token it comes with expires [Inf]), `auth_time` (= `iat`: ACS
 * authenticates the user at the issue [Inf]), and `nonce` when the request had one.
 */
export function buildIdTokenClaims(subject: IdTokenSubject): Record<string, unknown> {
  const iat = Math.floor(subject.issuedAt.getTime() / 1000);
  return {
    iss: subject.issuer,
    sub: subject.userId,
    aud: [subject.applicationId],
    iat,
    exp: iat + subject.lifetimeSeconds,
    auth_time: iat,
    ...(subject.nonce === null ? {} : { nonce: subject.nonce }),
  };
}

/** A compact JWS (RFC 7515) of `claims`, signed RS256 with `key`. */
export function signIdToken(
  claims: Record<string, unknown>,
  key: Pick<IdTokenKey, 'kid' | 'privateKeyPem'>,
): string {
  const header = { alg: ID_TOKEN_ALGORITHM, typ: 'JWT', kid: key.kid };
  const input = `${base64url(header)}.${base64url(claims)}`;
  const signature = sign('sha256', Buffer.from(input), key.privateKeyPem).toString('base64url');
  return `${input}.${signature}`;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The JWKS of GET /oauth2/keys (OAS `OAuth2GetKeys`). */
export function renderJwks(keys: readonly PublicJwk[]): { keys: PublicJwk[] } {
  return { keys: [...keys] };
}

/**
 * The issuer api-gateway passes on: an `http(s)` URL without query, fragment, credentials
 * or trailing slash; anything else (it is the gateway's own configuration or the request's
 * Host) falls back to `fallback` so that a malformed Host header cannot shape a token.
 */
export function readIssuer(text: string, fallback: string): string {
  if (text.length === 0 || text.length > 2048) return fallback;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fallback;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fallback;
  if (url.username || url.password || url.search || url.hash) return fallback;
  return url.toString().replace(/\/+$/, '');
}

/** The issuer when api-gateway gave none usable ([Inf]: its default local address). */
export const DEFAULT_ISSUER = 'http://127.0.0.1:3000';

/** Whether granted scopes ask for an ID token (`openid`). */
export function wantsIdToken(scopes: readonly string[]): boolean {
  return scopes.includes('openid');
}
