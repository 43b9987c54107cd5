import type { oauth } from '@acs/protos';
import { UnauthorizedError } from '@acs/discord-errors';
import { hasBotTokenShape } from '../domain/bot-token';
import { hashSecret } from '../domain/hash-secret';
import { MAX_TOKEN_CACHE_SECONDS } from '../domain/limits';
import { cacheSecondsUntil, type Principal } from '../domain/principal';
import type { TokenStore } from '../store/token-store';
import type { HandlerDeps } from './handler-deps';

/** Longest token we hash and look up; anything longer is no token of ours. */
const MAX_TOKEN_LENGTH = 512;

/** The handler of ResolveToken, which api-gateway calls (through a short cache) on every request. */
export function createTokenHandlers({ tokens, now = () => new Date() }: HandlerDeps) {
  return {
    async ResolveToken(request: oauth.ResolveTokenRequest__Output): Promise<oauth.ResolveTokenResponse> {
      const { token } = request;
      if (token === '' || token.length > MAX_TOKEN_LENGTH) throw new UnauthorizedError();
      const principal = await resolve(tokens, request.kind, token, now());
      if (!principal) throw new UnauthorizedError();
      return {
        kind: principal.kind,
        application_id: principal.applicationId,
        user_id: principal.userId,
        scopes: principal.scopes,
        application_flags: principal.applicationFlags,
        user_locale: principal.userLocale,
        cache_seconds: principal.cacheSeconds,
      };
    },
  };
}

async function resolve(
  tokens: TokenStore,
  kind: oauth.PrincipalKind__Output,
  token: string,
  now: Date,
): Promise<Principal | undefined> {
  switch (kind) {
    case 'PRINCIPAL_KIND_BOT': {
      if (!hasBotTokenShape(token)) return undefined;
      const bot = await tokens.findBotToken(hashSecret(token));
      return (
        bot && {
          kind,
          applicationId: bot.applicationId,
          userId: bot.applicationId,
          scopes: [],
          applicationFlags: bot.flags,
          userLocale: '',
          cacheSeconds: MAX_TOKEN_CACHE_SECONDS,
        }
      );
    }
    case 'PRINCIPAL_KIND_BEARER': {
      const grant = await tokens.findLiveAccessToken(hashSecret(token), now);
      return (
        grant && {
          kind,
          applicationId: grant.applicationId,
          userId: grant.userId ?? '',
          scopes: grant.scopes,
          applicationFlags: grant.applicationFlags,
          userLocale: grant.userLocale ?? '',
          // Never cached past its expiry (0 = do not cache: less than a second left).
          cacheSeconds: cacheSecondsUntil(grant.expiresAt, now),
        }
      );
    }
    case 'PRINCIPAL_KIND_USER_SESSION': {
      const session = await tokens.findSession(hashSecret(token));
      return (
        session && {
          kind,
          applicationId: '',
          userId: session.userId,
          scopes: [],
          applicationFlags: 0,
          userLocale: session.locale,
          cacheSeconds: MAX_TOKEN_CACHE_SECONDS,
        }
      );
    }
    default:
      return undefined;
  }
}
