import type { oauth } from '@acs/protos';
import { parseJsonObject } from '@acs/discord-errors';
import { hashSecret } from '../domain/hash-secret';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import {
  BOT_AUTH_TYPE,
  PROVISIONAL_TOKEN_TTL_SECONDS,
  renderProvisionalToken,
  validateBotTokenBody,
} from '../domain/provisional-accounts';
import { OAUTH2_TOKEN_LENGTH } from '../domain/limits';
import { randomToken } from '../domain/random-token';
import type { IdentityRequest } from '../store/provisional-account-store';
import type { HandlerDeps } from './handler-deps';

/** Handlers of the Social SDK's provisional accounts (api-gateway's `/partner-sdk/…`). */
export function createProvisionalAccountHandlers({
  provisionalAccounts,
  snowflakes,
  now = () => new Date(),
}: HandlerDeps) {
  /** Issues a 7-day token for the identity's account (created when new) and renders the answer. */
  async function issue(request: IdentityRequest): Promise<oauth.ProvisionalTokenResponse> {
    const accessToken = randomToken(OAUTH2_TOKEN_LENGTH);
    await provisionalAccounts.issueToken(request, {
      newUserId: snowflakes.next(),
      grantId: snowflakes.next(),
      tokenHash: hashSecret(accessToken),
      expiresAt: new Date(now().getTime() + PROVISIONAL_TOKEN_TTL_SECONDS * 1000),
    });
    return { token_json: JSON.stringify(renderProvisionalToken(accessToken)) };
  }

  return {
    async IssueBotProvisionalToken(
      request: oauth.IssueBotProvisionalTokenRequest__Output,
    ): Promise<oauth.ProvisionalTokenResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id).toString();
      const body = validateBotTokenBody(parseJsonObject(request.body_json));
      return issue({
        applicationId,
        authType: BOT_AUTH_TYPE,
        externalUserId: body.externalUserId,
        displayName: body.preferredGlobalName,
      });
    },
  };
}
