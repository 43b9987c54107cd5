import { hashSecret, type Digest } from './hash-secret';
import { OAUTH2_TOKEN_LENGTH } from './limits';
import { randomToken } from './random-token';
import type { TokenLifetimes } from './token-lifetimes';

/** A new access token (and refresh token) as shown once, and as stored (digests). */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  stored: {
    accessTokenHash: Digest;
    accessExpiresAt: Date;
    refreshTokenHash: Digest | null;
    refreshExpiresAt: Date;
  };
}

/** Generates an access token and, unless `withRefresh` is false, a refresh token, with their expiries. */
export function issueOAuth2Tokens(lifetimes: TokenLifetimes, now: Date, withRefresh: boolean): IssuedTokens {
  const accessToken = randomToken(OAUTH2_TOKEN_LENGTH);
  const refreshToken = withRefresh ? randomToken(OAUTH2_TOKEN_LENGTH) : null;
  return {
    accessToken,
    refreshToken,
    stored: {
      accessTokenHash: hashSecret(accessToken),
      accessExpiresAt: new Date(now.getTime() + lifetimes.accessToken * 1000),
      refreshTokenHash: refreshToken === null ? null : hashSecret(refreshToken),
      refreshExpiresAt: new Date(now.getTime() + lifetimes.refreshToken * 1000),
    },
  };
}
