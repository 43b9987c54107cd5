import type { oauth } from '@acs/protos';
import { MissingAccessError, MissingPermissionsError, parseJsonObject } from '@acs/discord-errors';
import { buildLocation } from '../domain/build-location';
import { issueAuthorizationCode } from '../domain/issue-authorization-code';
import { MANAGE_GUILD } from '../domain/limits';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { planAuthorization } from '../domain/plan-authorization';
import { validateAuthorizeBody } from '../domain/validate-authorize-body';
import { findConsentParties } from './find-consent-parties';
import type { HandlerDeps } from './handler-deps';

/** Handlers of the consent (`POST /admin/oauth2/authorize`) and of installation lookups. */
export function createAuthorizeHandlers(deps: HandlerDeps) {
  const { installations, permissions, lifetimes, now = () => new Date() } = deps;
  return {
    async Authorize(request: oauth.AuthorizeRequest__Output): Promise<oauth.AuthorizeResponse> {
      const input = validateAuthorizeBody(parseJsonObject(request.body_json));
      const { application } = await findConsentParties(deps, input);
      const plan = planAuthorization(input, application);
      // Installing in a guild takes MANAGE_GUILD there (403 / 50013 without it); permissions'
      // own errors (e.g. 404 / 10004 Unknown Guild) pass through.
      if (
        plan.install?.type === 0 &&
        !(await permissions.hasPermissions(plan.install.guildId, input.userId, MANAGE_GUILD))
      ) {
        throw new MissingPermissionsError(['MANAGE_GUILD']);
      }

      const issued = plan.issueCode
        ? issueAuthorizationCode(input, plan, now(), lifetimes.authorizationCode)
        : null;
      const guildId = plan.install?.type === 0 ? plan.install.guildId : null;
      // The bot joins inside oauth's transaction, last: a failure there records nothing,
      // a failed commit leaves a bot member that the same consent again makes whole
      // (PutBotMember is idempotent), and the install's event, which makes the dispatcher
      // send GUILD_CREATE, is published only once the bot holds its managed role.
      const addBot =
        guildId !== null && plan.scopes.includes('bot')
          ? (granted: string) =>
              permissions.putBotMember({
                guildId,
                applicationId: input.clientId,
                applicationName: application.name,
                permissions: granted,
              })
          : undefined;
      await installations.recordConsent(
        {
          applicationId: input.clientId,
          userId: input.userId,
          scopes: plan.scopes,
          install: plan.install,
          installScopes: plan.installScopes,
          permissions: input.permissions,
          code: issued?.stored ?? null,
        },
        addBot,
      );
      const location = buildLocation({
        redirectUri: plan.redirectUri,
        code: issued?.code ?? null,
        state: input.state,
        guildId,
        permissions: guildId !== null && plan.scopes.includes('bot') ? input.permissions : null,
      });
      return { location, code: issued?.code ?? '' };
    },

    async GetInstallation(
      request: oauth.GetInstallationRequest__Output,
    ): Promise<oauth.GetInstallationResponse> {
      const scopes = await installations.findGuildScopes(
        parseSnowflakeParam('application_id', request.application_id),
        parseSnowflakeParam('guild_id', request.guild_id),
      );
      if (!scopes) throw new MissingAccessError();
      return { scopes };
    },
  };
}
