import { MAX_TOKEN_CACHE_SECONDS } from './limits';

/** Who a token acts as; mirrors `ResolveTokenResponse`. */
export interface Principal {
  kind: 'PRINCIPAL_KIND_BOT' | 'PRINCIPAL_KIND_BEARER' | 'PRINCIPAL_KIND_USER_SESSION';
  applicationId: string;
  userId: string;
  scopes: string[];
  applicationFlags: number;
  userLocale: string;
  cacheSeconds: number;
}

/**
 * How long api-gateway may cache a token that expires at `expiresAt`: its remaining
 * whole seconds, at most 60; 0 means it is already dead.
 */
export function cacheSecondsUntil(expiresAt: Date, now: Date): number {
  const remaining = Math.floor((expiresAt.getTime() - now.getTime()) / 1000);
  return Math.max(0, Math.min(MAX_TOKEN_CACHE_SECONDS, remaining));
}
