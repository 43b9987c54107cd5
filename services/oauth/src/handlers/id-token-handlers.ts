import type { oauth } from '@acs/protos';
import {
  buildIdTokenClaims,
  DEFAULT_ISSUER,
  readIssuer,
  renderJwks,
  signIdToken,
  type IdTokenKey,
} from '../domain/id-tokens';
import type { HandlerDeps } from './handler-deps';

/** What an ID token is minted for (the issuer as api-gateway passed it). */
export interface IdTokenRequest {
  issuer: string;
  userId: string;
  applicationId: string;
  issuedAt: Date;
  lifetimeSeconds: number;
  nonce: string | null;
}

/** Signs an ID token with `key` (read before the write it goes with, so that it cannot fail after). */
export function mintIdToken(key: IdTokenKey, request: IdTokenRequest): string {
  const claims = buildIdTokenClaims({ ...request, issuer: readIssuer(request.issuer, DEFAULT_ISSUER) });
  return signIdToken(claims, key);
}

/** GET /oauth2/keys: the JWKS of the keys that sign ID tokens. */
export function createIdTokenHandlers({ idTokenKeys }: HandlerDeps) {
  return {
    async GetIdTokenKeys(): Promise<oauth.GetIdTokenKeysResponse> {
      return { jwks_json: JSON.stringify(renderJwks(await idTokenKeys.publicKeys())) };
    },
  };
}
