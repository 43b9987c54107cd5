import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { oauth } from '@acs/protos';
import { fromGrpcError, UnauthorizedError } from '@acs/service-kit';
import { call } from '../backends';
import type { Principal } from './principal';
import { TokenCache } from './token-cache';

const KINDS: Record<string, { wire: oauth.PrincipalKind; kind: Principal['kind'] }> = {
  bot: { wire: 'PRINCIPAL_KIND_BOT', kind: 'bot' },
  bearer: { wire: 'PRINCIPAL_KIND_BEARER', kind: 'bearer' },
};

/** Resolves the Authorization header of a request to a principal, or throws 401. */
export interface Authenticator {
  authenticate(req: Request, allowUserSession?: boolean): Promise<Principal>;
  cache: TokenCache;
}

/**
 * Creates the authenticator: `Bot <token>` and `Bearer <token>`, and, where a route
 * allows it, a chat-client session token sent with no prefix. Resolution goes to
 * oauth and is cached for at most `maxCacheSeconds`.
 */
export function createAuthenticator(
  client: oauth.OAuthServiceClient,
  maxCacheSeconds: number,
): Authenticator {
  const cache = new TokenCache();
  return {
    cache,
    async authenticate(req, allowUserSession = false) {
      const header = req.headers.authorization;
      if (!header) throw new UnauthorizedError();
      const space = header.indexOf(' ');
      const prefix = space > 0 ? header.slice(0, space).toLowerCase() : '';
      const known = KINDS[prefix];
      if (!known && !allowUserSession) throw new UnauthorizedError();
      const token = known ? header.slice(space + 1).trim() : header.trim();
      if (token.length === 0 || token.length > 512) throw new UnauthorizedError();
      const key = createHash('sha256').update(header).digest('base64');
      const cached = cache.get(key);
      if (cached) return cached;
      let answer: oauth.ResolveTokenResponse__Output;
      try {
        answer = await call(client, client.ResolveToken, {
          kind: known ? known.wire : 'PRINCIPAL_KIND_USER_SESSION',
          token,
        });
      } catch (error) {
        throw fromGrpcError(error) ?? error;
      }
      const principal: Principal = {
        kind: known ? known.kind : 'user',
        applicationId: answer.application_id,
        userId: answer.user_id,
        scopes: answer.scopes,
        applicationFlags: Number(answer.application_flags),
        userLocale: answer.user_locale,
      };
      cache.set(key, principal, Math.min(answer.cache_seconds, maxCacheSeconds));
      return principal;
    },
  };
}
