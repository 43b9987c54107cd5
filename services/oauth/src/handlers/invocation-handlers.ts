import type { oauth } from '@acs/protos';
import { resolvableUserIds } from '../domain/resolvable-user-ids';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { renderEntitlement } from '../domain/monetization/render-monetization';
import { renderApplication } from '../domain/render-application';
import { renderPublicUser } from '../domain/render-user';
import type { HandlerDeps } from './handler-deps';

/** `DescribeInvocation`: what the interactions service needs of an application and a user to run a command. */
export function createInvocationHandlers({ invocations }: Pick<HandlerDeps, 'invocations'>) {
  return {
    async DescribeInvocation(
      request: oauth.DescribeInvocationRequest__Output,
    ): Promise<oauth.DescribeInvocationResponse> {
      const facts = await invocations.describe({
        applicationId: parseSnowflakeParam('application_id', request.application_id),
        userId: parseSnowflakeParam('user_id', request.user_id),
        guildId: request.guild_id === '' ? null : parseSnowflakeParam('guild_id', request.guild_id),
        resolveUserIds: resolvableUserIds(request.resolve_user_ids),
      });
      const { application: app, user } = facts;
      return {
        application_json: JSON.stringify(renderApplication(app)),
        application_flags: app.flags,
        interactions_endpoint_url: app.interactionsEndpointUrl ?? '',
        verify_key: app.verifyKey,
        signing_key_pem: facts.signingKeyPem,
        bot_user_json: JSON.stringify(renderPublicUser(app.bot)),
        user_json: JSON.stringify(renderPublicUser(user)),
        user_locale: user.locale,
        guild_installed: facts.guildScopes !== null,
        guild_scopes: facts.guildScopes ?? [],
        user_installed: facts.userInstalled,
        resolved_users_json: JSON.stringify(
          Object.fromEntries(
            facts.resolvedUsers.map((resolved) => [resolved.id, renderPublicUser(resolved)]),
          ),
        ),
        integration_types: app.integrationTypes,
        entitlements_json: JSON.stringify(facts.entitlements.map((e) => renderEntitlement(e))),
        entitlements_change_at: facts.entitlementsChangeAt?.toISOString() ?? '',
      };
    },
  };
}
