import { hashSecret, type Digest } from './hash-secret';
import { AUTHORIZATION_CODE_TTL_SECONDS } from './limits';
import type { AuthorizationPlan } from './plan-authorization';
import { generateAuthorizationCode } from './random-token';
import type { AuthorizeInput } from './validate-authorize-body';

/** What is stored of an authorization code: its digest and what it was granted for. */
export interface StoredCode {
  codeHash: Digest;
  expiresAt: Date;
  redirectUri: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  guildId: string | null;
  permissions: string | null;
  /** The request's nonce (scope openid), echoed in the ID token. */
  nonce: string | null;
}

/**
 * A new authorization code, bound to the consent's redirect URI, PKCE challenge and (bot
 * flow) guild; single-use and valid for `ttlSeconds` (100 s by default, facts §11). The raw
 * code is shown once.
 */
export function issueAuthorizationCode(
  input: AuthorizeInput,
  plan: AuthorizationPlan,
  now: Date,
  ttlSeconds: number = AUTHORIZATION_CODE_TTL_SECONDS,
): { code: string; stored: StoredCode } {
  const code = generateAuthorizationCode();
  return {
    code,
    stored: {
      codeHash: hashSecret(code),
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      redirectUri: plan.redirectUri,
      codeChallenge: input.codeChallenge,
      codeChallengeMethod: input.codeChallengeMethod,
      guildId: plan.install?.type === 0 ? plan.install.guildId : null,
      permissions: input.permissions,
      nonce: input.nonce,
    },
  };
}
