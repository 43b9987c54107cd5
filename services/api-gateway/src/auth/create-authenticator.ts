import type { Request } from 'express';
import { DiscordError, UnauthorizedError } from '@acs/discord-errors';
import type { OAuthClient, ResolvedToken } from '../clients/oauth-client';
import type { Principal } from '../domain/principal';
import { readCredential } from './read-credential';
import { TokenCache } from './token-cache';
import { UnknownTokenCache } from './unknown-token-cache';

/** Resolves the Authorization header of a request to a principal, or throws 401. */
export interface Authenticator {
  /** The request's principal (resolved once per request, however often asked); 401 when there is none. */
  authenticate(req: Request, allowUserSession?: boolean): Promise<Principal>;
  /**
   * A user's chat-client session (no prefix) for the routes only a user's client calls:
   * a bot or Bearer token is 401 there without oauth being asked.
   */
  authenticateSession(req: Request): Promise<Principal>;
  /**
   * The key of the request's credential when it resolves to a principal, else undefined
   * (none, malformed, unknown, or oauth unreachable): who the rate limits count. With
   * `sessionOnly`, a bot or Bearer token counts as none. A credential not known yet is
   * looked up only when `lookup` (asked only then) says so; else oauth is not asked.
   */
  identify(
    req: Request,
    options: { allowUserSession: boolean; sessionOnly?: boolean; lookup: () => Promise<boolean> },
  ): Promise<string | undefined>;
  /**
   * The request's principal as far as it is known without asking oauth: the one this
   * request resolved already, or its credential's cached one (undefined: none yet).
   */
  knownPrincipal(req: Request): Promise<Principal | undefined>;
  cache: TokenCache;
}

/** How long oauth's answers are kept. */
export interface AuthenticatorCaching {
  /** Upper bound for a resolved token (oauth may allow less). */
  maxCacheSeconds: number;
  /** How long a token oauth called unknown or revoked is refused without asking again; 0 = never. */
  unknownTokenSeconds: number;
  /** The clock of both caches. */
  now?: () => number;
}

/**
 * Creates the authenticator: `Bot <token>` and `Bearer <token>`, and, where a route
 * allows it, a chat-client session token sent with no prefix. Resolution goes to
 * oauth; its answer is cached for at most `maxCacheSeconds`, and its "unknown token"
 * (401) for `unknownTokenSeconds`.
 */
export function createAuthenticator(
  oauth: OAuthClient,
  { maxCacheSeconds, unknownTokenSeconds, now = Date.now }: AuthenticatorCaching,
): Authenticator {
  const cache = new TokenCache(undefined, now);
  const unknown = new UnknownTokenCache(unknownTokenSeconds, undefined, now);
  // Lookups under way, by credential: a burst of requests with one uncached token (a bot
  // starting up, or someone replaying a bad token) makes one call to oauth, not one each.
  const pending = new Map<string, Promise<Principal>>();
  // Each request's answer, so that the rate limiter and the handler share one resolution.
  const resolved = new WeakMap<Request, { allowUserSession: boolean; principal: Promise<Principal> }>();

  async function resolve(kind: Principal['kind'], token: string, key: string): Promise<Principal> {
    let answer: ResolvedToken;
    try {
      answer = await oauth.resolveToken(kind, token);
    } catch (error) {
      // Only oauth's verdict on the token is remembered; a failed call (503, 504) is not.
      if (error instanceof DiscordError && error.httpStatus === 401) unknown.add(key);
      throw error;
    }
    cache.set(key, answer.principal, Math.min(answer.cacheSeconds, maxCacheSeconds));
    return answer.principal;
  }

  async function authenticateOnce(req: Request, allowUserSession: boolean): Promise<Principal> {
    const header = req.headers.authorization;
    if (!header) throw new UnauthorizedError();
    const { kind, token, key } = readCredential(header);
    if (kind === 'user' && !allowUserSession) throw new UnauthorizedError();
    if (token.length === 0 || token.length > 512) throw new UnauthorizedError();
    const cached = cache.get(key);
    if (cached) return cached;
    if (unknown.has(key)) throw new UnauthorizedError();
    let lookup = pending.get(key);
    if (!lookup) {
      lookup = resolve(kind, token, key).finally(() => pending.delete(key));
      pending.set(key, lookup);
    }
    return lookup;
  }

  function authenticate(req: Request, allowUserSession = false): Promise<Principal> {
    const earlier = resolved.get(req);
    if (earlier?.allowUserSession === allowUserSession) return earlier.principal;
    const principal = authenticateOnce(req, allowUserSession);
    resolved.set(req, { allowUserSession, principal });
    return principal;
  }

  return {
    cache,
    authenticate,
    async knownPrincipal(req) {
      const earlier = resolved.get(req);
      if (earlier) return earlier.principal.catch(() => undefined);
      const header = req.headers.authorization;
      return header ? cache.get(readCredential(header).key) : undefined;
    },
    async authenticateSession(req) {
      const header = req.headers.authorization;
      if (!header || readCredential(header).kind !== 'user') throw new UnauthorizedError();
      return authenticate(req, true);
    },
    async identify(req, { allowUserSession, sessionOnly = false, lookup }) {
      const header = req.headers.authorization;
      if (!header) return undefined;
      const { kind, key } = readCredential(header);
      if (kind === 'user' ? !allowUserSession : sessionOnly) return undefined;
      if (cache.get(key)) return key;
      if (unknown.has(key) || !(await lookup())) return undefined;
      return authenticate(req, allowUserSession).then(
        () => key,
        () => undefined,
      );
    },
  };
}
