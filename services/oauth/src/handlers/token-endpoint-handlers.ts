import type { oauth } from '@acs/protos';
import { DiscordError, invalidClientError } from '@acs/discord-errors';
import { isSnowflake } from '@acs/snowflake';
import { authenticateClient, type AuthenticatedClient, type GrantType } from '../domain/authenticate-client';
import { checkCodeRedemption } from '../domain/check-code-redemption';
import { hashSecret } from '../domain/hash-secret';
import { issueOAuth2Tokens, type IssuedTokens } from '../domain/issue-oauth2-tokens';
import { invalidGrant, invalidRequest, unauthorizedClient } from '../domain/oauth2-errors';
import { readGrantType } from '../domain/read-grant-type';
import {
  narrowRefreshScopes,
  selectClientCredentialsScopes,
} from '../domain/select-client-credentials-scopes';
import type { GrantOutcome } from '../store/grant-store';
import type { HandlerDeps } from './handler-deps';
import { mintIdToken } from './id-token-handlers';
import { invalidMergeTokenError, readMergeCredential } from '../domain/merge-accounts';
import { wantsIdToken } from '../domain/id-tokens';

/** Longest token or code we hash and look up; anything longer is none of ours. */
const MAX_PRESENTED_LENGTH = 512;

/** Handlers of the token endpoint (RFC 6749 §3.2) and of revocation (RFC 7009). */
export function createTokenEndpointHandlers(deps: HandlerDeps) {
  const {
    applications,
    grants,
    idTokenKeys,
    identityProviders,
    oidcIssuers,
    snowflakes,
    lifetimes,
    now = () => new Date(),
  } = deps;

  /**
   * The `sub` an OIDC merge credential proves, verified against the application's issuer
   * before the exchange's transaction (its fetches must not hold rows). Any failure, no
   * provider included, is the merge table's 403 / 50025 ([Inf]: the table has one code for
   * an invalid external token).
   */
  async function verifiedOidcSubject(clientId: string, token: string, at: Date): Promise<string> {
    const provider = await identityProviders.readOidcProvider(clientId);
    if (!provider) throw invalidMergeTokenError();
    try {
      return (await oidcIssuers.verify(token, provider, clientId, at)).subject;
    } catch (error) {
      if (error instanceof DiscordError) throw invalidMergeTokenError();
      throw error;
    }
  }

  /** The authenticated client of a request (401 `invalid_client` otherwise). */
  async function clientOf(
    request: { client_id: string; client_secret: string },
    use: GrantType | 'revocation',
  ): Promise<AuthenticatedClient> {
    if (!isSnowflake(request.client_id)) throw invalidClientError();
    const client = await applications.findClient(BigInt(request.client_id));
    return authenticateClient(
      client,
      { clientId: request.client_id, clientSecret: request.client_secret },
      use,
    );
  }

  function answer(
    tokens: IssuedTokens,
    scopes: readonly string[],
    applicationId: string,
    idToken = '',
  ): oauth.ExchangeTokenResponse {
    return {
      id_token: idToken,
      access_token: tokens.accessToken,
      token_type: 'Bearer',
      expires_in: lifetimes.accessToken,
      refresh_token: tokens.refreshToken ?? '',
      scope: scopes.join(' '),
      application_id: applicationId,
    };
  }

  function unless(outcome: GrantOutcome, parameter: string): void {
    if (outcome.kind === 'rejected') throw outcome.error;
    if (outcome.kind !== 'issued') throw invalidGrant(parameter);
  }

  return {
    async ExchangeToken(request: oauth.ExchangeTokenRequest__Output): Promise<oauth.ExchangeTokenResponse> {
      const params = request.params;
      const grantType = readGrantType(params.grant_type);
      const client = await clientOf(request, grantType);
      const at = now();

      if (grantType === 'authorization_code') {
        const code = params.code;
        if (!code) throw invalidRequest('Missing "code" in request.');
        // A merge of a provisional account into the code's user (facts A.4).
        const merge = readMergeCredential(params);
        const verifiedSubject =
          merge?.externalAuthType === 'OIDC'
            ? await verifiedOidcSubject(client.id, merge.externalAuthToken, at)
            : undefined;
        const tokens = issueOAuth2Tokens(lifetimes, at, true);
        // The signing key before the exchange: nothing after the write can fail.
        const key = await idTokenKeys.signingKey();
        const outcome =
          code.length > MAX_PRESENTED_LENGTH
            ? ({ kind: 'invalid' } as const)
            : await grants.redeemCode({
                codeHash: hashSecret(code),
                clientId: client.id,
                grantId: snowflakes.next(),
                tokens,
                now: at,
                ...(merge && {
                  merge: {
                    operationId: snowflakes.next(),
                    applicationId: client.id,
                    credential: merge,
                    tokenHash: hashSecret(merge.externalAuthToken),
                    ...(verifiedSubject === undefined ? {} : { verifiedSubject }),
                    now: at,
                  },
                }),
                check: (stored) =>
                  checkCodeRedemption(
                    stored,
                    {
                      clientId: client.id,
                      confidential: client.confidential,
                      redirectUri: params.redirect_uri,
                      codeVerifier: params.code_verifier,
                    },
                    at,
                  ),
              });
        unless(outcome, 'code');
        if (outcome.kind !== 'issued') throw invalidGrant('code');
        const idToken =
          wantsIdToken(outcome.scopes) && outcome.userId !== null
            ? mintIdToken(key, {
                issuer: request.issuer,
                userId: outcome.userId,
                applicationId: client.id,
                issuedAt: at,
                lifetimeSeconds: lifetimes.accessToken,
                nonce: outcome.nonce ?? null,
              })
            : '';
        return answer(tokens, outcome.scopes, client.id, idToken);
      }

      if (grantType === 'refresh_token') {
        const refreshToken = params.refresh_token;
        if (!refreshToken) throw invalidRequest('Missing "refresh_token" in request.');
        const tokens = issueOAuth2Tokens(lifetimes, at, true);
        const outcome =
          refreshToken.length > MAX_PRESENTED_LENGTH
            ? ({ kind: 'invalid' } as const)
            : await grants.rotateRefreshToken({
                tokenHash: hashSecret(refreshToken),
                clientId: client.id,
                tokens,
                now: at,
                narrowScopes: (granted) => narrowRefreshScopes(params.scope, granted),
              });
        unless(outcome, 'refresh_token');
        return answer(tokens, outcome.kind === 'issued' ? outcome.scopes : [], client.id);
      }

      // client_credentials: a token for the application's owner (facts §11), never a refresh token.
      const publicClient = () =>
        unauthorizedClient('Public clients cannot use the client credentials grant.');
      const ownerless = () => unauthorizedClient('This application has no owner to act for.');
      if (client.publicClient) throw publicClient();
      if (client.ownerId === null) throw ownerless();
      const scopes = selectClientCredentialsScopes(params.scope);
      const tokens = issueOAuth2Tokens(lifetimes, at, false);
      // The grant is for whoever owns the application when it commits (not `client.ownerId`,
      // read before), and only if it is not a public client by then: an owner change or a
      // switch to public client in between revokes the client-credentials tokens.
      const refusal = await grants.createClientCredentialsGrant({
        grantId: snowflakes.next(),
        applicationId: client.id,
        scopes,
        tokens,
      });
      if (refusal === 'public_client') throw publicClient();
      if (refusal === 'no_owner') throw ownerless();
      return answer(tokens, scopes, client.id);
    },

    async RevokeToken(request: oauth.RevokeTokenRequest__Output): Promise<oauth.RevokeTokenResponse> {
      if (request.token === '') throw invalidRequest('Missing "token" in request.');
      const client = await clientOf(request, 'revocation');
      // RFC 7009 §2.2: an unknown (or another client's) token is answered like a revoked one.
      if (request.token.length > MAX_PRESENTED_LENGTH) return { revoked: false, application_id: client.id };
      const revoked = await grants.revokeByToken(
        hashSecret(request.token),
        client.id,
        request.token_type_hint,
        now(),
      );
      return { revoked, application_id: client.id };
    },
  };
}
