import type { oauth } from '@acs/protos';
import { parseJsonObject } from '@acs/discord-errors';
import {
  generateTestExternalToken,
  readProviderType,
  renderTestIssuer,
  TEST_TOKEN_TTL_SECONDS,
  validateExchangeBody,
  validateTestIssuer,
  validateTestTokenRequest,
} from '../domain/external-credentials';
import { hashSecret } from '../domain/hash-secret';
import { renderOidcProvider, validateOidcProvider } from '../domain/oidc-providers';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import {
  BOT_AUTH_TYPE,
  PROVISIONAL_SCOPES,
  PROVISIONAL_TOKEN_TTL_SECONDS,
  renderProvisionalToken,
  validateBotTokenBody,
  validateRename,
} from '../domain/provisional-accounts';
import { renderCurrentUser } from '../domain/render-user';
import { OAUTH2_TOKEN_LENGTH } from '../domain/limits';
import { randomToken } from '../domain/random-token';
import type { IdentityRequest } from '../store/provisional-account-store';
import type { HandlerDeps } from './handler-deps';
import { mintIdToken } from './id-token-handlers';
import { resolveExternalIdentity } from './resolve-external-identity';

/** Handlers of the Social SDK's provisional accounts (api-gateway's `/partner-sdk/…`). */
export function createProvisionalAccountHandlers(deps: HandlerDeps) {
  const {
    provisionalAccounts,
    identityProviders,
    users,
    idTokenKeys,
    snowflakes,
    allowLoopbackIssuers = false,
    now = () => new Date(),
  } = deps;
  /** Issues a 7-day token for the identity's account (created when new) and renders the answer. */
  async function issue(request: IdentityRequest, issuer: string): Promise<oauth.ProvisionalTokenResponse> {
    const accessToken = randomToken(OAUTH2_TOKEN_LENGTH);
    // The key first: nothing after the write can fail.
    const key = await idTokenKeys.signingKey();
    const issuedAt = now();
    const { userId } = await provisionalAccounts.issueToken(request, {
      newUserId: snowflakes.next(),
      grantId: snowflakes.next(),
      tokenHash: hashSecret(accessToken),
      expiresAt: new Date(issuedAt.getTime() + PROVISIONAL_TOKEN_TTL_SECONDS * 1000),
    });
    const idToken = mintIdToken(key, {
      issuer,
      userId,
      applicationId: request.applicationId,
      issuedAt,
      lifetimeSeconds: PROVISIONAL_TOKEN_TTL_SECONDS,
      nonce: null,
    });
    return { token_json: JSON.stringify(renderProvisionalToken(accessToken, idToken)) };
  }

  return {
    async IssueBotProvisionalToken(
      request: oauth.IssueBotProvisionalTokenRequest__Output,
    ): Promise<oauth.ProvisionalTokenResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id).toString();
      const body = validateBotTokenBody(parseJsonObject(request.body_json));
      return issue(
        {
          applicationId,
          authType: BOT_AUTH_TYPE,
          externalUserId: body.externalUserId,
          displayName: body.preferredGlobalName,
        },
        request.issuer,
      );
    },

    async ExchangeExternalCredentials(
      request: oauth.ExchangeExternalCredentialsRequest__Output,
    ): Promise<oauth.ProvisionalTokenResponse> {
      const exchange = validateExchangeBody(parseJsonObject(request.body_json));
      const identity = await resolveExternalIdentity(deps, exchange, now());
      return issue(
        {
          applicationId: exchange.clientId,
          authType: identity.externalAuthType,
          externalUserId: identity.externalUserId,
          displayName: identity.displayName,
          providerId: identity.providerId,
        },
        request.issuer,
      );
    },

    async PutIdentityProvider(
      request: oauth.PutIdentityProviderRequest__Output,
    ): Promise<oauth.PutIdentityProviderResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id).toString();
      const body = parseJsonObject(request.body_json);
      if (readProviderType(request.external_auth_type) === 'OIDC') {
        const provider = validateOidcProvider(body, allowLoopbackIssuers);
        await identityProviders.putOidcProvider(applicationId, provider);
        return { provider_json: JSON.stringify(renderOidcProvider(provider)) };
      }
      const authType = validateTestIssuer(request.external_auth_type, body);
      await identityProviders.putTestIssuer(applicationId, authType);
      return { provider_json: JSON.stringify(renderTestIssuer(authType)) };
    },

    async CreateTestExternalToken(
      request: oauth.CreateTestExternalTokenRequest__Output,
    ): Promise<oauth.CreateTestExternalTokenResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id).toString();
      const mint = validateTestTokenRequest(parseJsonObject(request.body_json));
      const token = generateTestExternalToken();
      await identityProviders.createTestToken({
        applicationId,
        ...mint,
        tokenHash: hashSecret(token),
        expiresAt: new Date(now().getTime() + TEST_TOKEN_TTL_SECONDS * 1000),
      });
      return { token_json: JSON.stringify({ external_auth_token: token }) };
    },

    async RenameProvisionalAccount(
      request: oauth.RenameProvisionalAccountRequest__Output,
    ): Promise<oauth.RenameProvisionalAccountResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id).toString();
      const userId = parseSnowflakeParam('user_id', request.user_id);
      const globalName = validateRename(parseJsonObject(request.body_json));
      await provisionalAccounts.rename(userId.toString(), applicationId, globalName);
      const user = await users.get(userId);
      return { user_json: JSON.stringify(renderCurrentUser(user, PROVISIONAL_SCOPES)) };
    },
  };
}
