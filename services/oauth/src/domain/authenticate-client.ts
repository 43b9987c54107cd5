import { invalidClientError } from '@acs/discord-errors';
import { secretMatches } from './hash-secret';

/** The grant types of the token endpoint (facts §11). */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** How the client presented itself (the gateway reads the Authorization header and the form). */
export interface PresentedClient {
  clientId: string;
  /** '' when no secret was presented. */
  clientSecret: string;
}

/** What client authentication needs to know of an application. */
export interface ClientRecord {
  id: string;
  clientSecretHash: Uint8Array;
  publicClient: boolean;
  ownerId: string | null;
}

/** An authenticated client: `confidential` when it proved its secret, else a public client. */
export interface AuthenticatedClient extends ClientRecord {
  confidential: boolean;
}

/**
 * Authenticates the client of a token or revocation request (RFC 6749 §2.3, §3.2.1): the
 * secret must match (constant-time), or, for an application marked `public_client`, may
 * be absent where a public client can prove itself otherwise: PKCE at the code exchange,
 * possession of a rotating refresh token, and revocation. Anything else is 401
 * `invalid_client`.
 */
export function authenticateClient(
  client: ClientRecord | undefined,
  presented: PresentedClient,
  use: GrantType | 'revocation',
): AuthenticatedClient {
  if (!client) throw invalidClientError();
  if (presented.clientSecret !== '') {
    if (!secretMatches(presented.clientSecret, client.clientSecretHash)) throw invalidClientError();
    return { ...client, confidential: true };
  }
  if (client.publicClient && use !== 'client_credentials') return { ...client, confidential: false };
  throw invalidClientError('Client authentication is required.');
}
