import {
  checkExchangeClient,
  planExchange,
  requireIdentityProvider,
  type ExchangeRequest,
} from '../domain/external-credentials';
import { hashSecret } from '../domain/hash-secret';
import type { HandlerDeps } from './handler-deps';

/** The identity an external credential proves, with what a new account of it is named. */
export interface ExternalIdentity {
  externalAuthType: string;
  externalUserId: string;
  /** The display name a new account gets (an OIDC token's `preferred_username`), else null. */
  displayName: string | null;
  /** The OIDC issuer of an OIDC identity (named by a 530010); null otherwise. */
  providerId: string | null;
}

/**
 * Checks an exchange's credentials (the External Credentials Exchange and the client's
 * unmerge share them): the client and the provider (530007, 50035), then the token: an
 * OIDC ID token against its issuer (clients/oidc-issuers.ts, after the client checks, so
 * that nobody without the client's secret makes ACS fetch anything), any other type
 * against its test issuer's tokens (530020, 530001).
 */
export async function resolveExternalIdentity(
  { identityProviders, oidcIssuers }: Pick<HandlerDeps, 'identityProviders' | 'oidcIssuers'>,
  exchange: ExchangeRequest,
  at: Date,
): Promise<ExternalIdentity> {
  const facts = await identityProviders.readExchangeFacts(
    exchange.clientId,
    exchange.externalAuthType,
    hashSecret(exchange.externalAuthToken),
  );
  if (exchange.externalAuthType === 'OIDC') {
    checkExchangeClient(exchange, facts);
    const provider = facts.oidcProvider;
    requireIdentityProvider(provider !== undefined);
    const identity = await oidcIssuers.verify(exchange.externalAuthToken, provider!, exchange.clientId, at);
    return {
      externalAuthType: 'OIDC',
      externalUserId: identity.subject,
      displayName: identity.preferredUsername,
      providerId: provider!.issuer,
    };
  }
  const identity = planExchange(exchange, facts, at);
  return { ...identity, displayName: null, providerId: null };
}
