import type { OAuth2Error } from '@acs/discord-errors';
import { invalidGrant } from './oauth2-errors';
import { pkceMatches } from './verify-pkce';

/** What a code exchange checks of the stored code. */
export interface RedeemableCode {
  applicationId: string;
  redirectUri: string | null;
  codeChallenge: string | null;
  expiresAt: Date;
}

/** The token request's side of a code exchange. */
export interface CodeRedemption {
  clientId: string;
  /** Whether the client proved its secret (else: a public client, which must use PKCE). */
  confidential: boolean;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
}

/**
 * Why a code may not be exchanged, or null (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 9700
 * §2.1.1): it was issued to another client or has expired; the redirect URI is not
 * byte-for-byte the one it was issued for; PKCE fails — a challenge without a verifier, a
 * verifier without a challenge (downgrade), a wrong verifier, or a public client without PKCE.
 */
export function checkCodeRedemption(
  code: RedeemableCode,
  request: CodeRedemption,
  now: Date,
): OAuth2Error | null {
  if (code.applicationId !== request.clientId) return invalidGrant('code');
  if (code.expiresAt.getTime() <= now.getTime()) return invalidGrant('code');
  if (code.redirectUri !== null && request.redirectUri !== code.redirectUri)
    return invalidGrant('redirect_uri');
  if (code.codeChallenge === null) {
    if (request.codeVerifier !== undefined) return invalidGrant('code_verifier');
    if (!request.confidential) return invalidGrant('code_verifier');
    return null;
  }
  if (request.codeVerifier === undefined || !pkceMatches(request.codeVerifier, code.codeChallenge)) {
    return invalidGrant('code_verifier');
  }
  return null;
}
