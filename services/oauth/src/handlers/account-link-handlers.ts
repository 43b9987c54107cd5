import type { oauth } from '@acs/protos';
import { parseJsonObject } from '@acs/discord-errors';
import { renderBan, validateBanBody } from '../domain/bans';
import { validateExchangeBody } from '../domain/external-credentials';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { BOT_AUTH_TYPE, validateUnmergeBotBody } from '../domain/provisional-accounts';
import type { HandlerDeps } from './handler-deps';
import { resolveExternalIdentity } from './resolve-external-identity';

/** Handlers of unmerges (the partner-sdk routes) and bans (the admin API). */
export function createAccountLinkHandlers(deps: HandlerDeps) {
  const { accountLinks, snowflakes, now = () => new Date() } = deps;
  return {
    async UnmergeBotProvisionalAccount(
      request: oauth.UnmergeBotProvisionalAccountRequest__Output,
    ): Promise<oauth.UnmergeProvisionalAccountResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id).toString();
      const externalUserId = validateUnmergeBotBody(parseJsonObject(request.body_json));
      await accountLinks.unmerge(
        { applicationId, authType: BOT_AUTH_TYPE, externalUserId },
        snowflakes.next(),
        now(),
      );
      return { application_id: applicationId };
    },

    async UnmergeProvisionalAccount(
      request: oauth.UnmergeProvisionalAccountRequest__Output,
    ): Promise<oauth.UnmergeProvisionalAccountResponse> {
      // The exchange's body and checks (client 530007, provider, token: 530020, 530001, OIDC's).
      const body = validateExchangeBody(parseJsonObject(request.body_json));
      const at = now();
      const identity = await resolveExternalIdentity(deps, body, at);
      await accountLinks.unmerge(
        {
          applicationId: body.clientId,
          authType: identity.externalAuthType,
          externalUserId: identity.externalUserId,
        },
        snowflakes.next(),
        at,
      );
      return { application_id: body.clientId };
    },

    async BanUser(request: oauth.BanUserRequest__Output): Promise<oauth.BanUserResponse> {
      const userId = parseSnowflakeParam('user_id', request.user_id).toString();
      const at = now();
      const ban = validateBanBody(parseJsonObject(request.body_json), at);
      await accountLinks.ban(userId, ban, () => snowflakes.next(), at);
      return { ban_json: JSON.stringify(renderBan(userId, ban)) };
    },

    async UnbanUser(request: oauth.UnbanUserRequest__Output): Promise<oauth.UnbanUserResponse> {
      await accountLinks.unban(parseSnowflakeParam('user_id', request.user_id).toString());
      return {};
    },
  };
}
