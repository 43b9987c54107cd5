import type { oauth } from '@acs/protos';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import type { HandlerDeps } from './handler-deps';

/** Handlers that read or end installations and authorizations (bot guilds, deauthorization). */
export function createInstallationHandlers({
  applications,
  users,
  installations,
  grants,
  now = () => new Date(),
}: HandlerDeps) {
  return {
    async ListBotGuilds(request: oauth.ListBotGuildsRequest__Output): Promise<oauth.ListBotGuildsResponse> {
      const guilds = await installations.listBotGuilds(
        parseSnowflakeParam('application_id', request.application_id),
      );
      return { guilds: guilds.map((g) => ({ guild_id: g.guildId, permissions: g.permissions })) };
    },

    async RemoveAuthorization(
      request: oauth.RemoveAuthorizationRequest__Output,
    ): Promise<oauth.RemoveAuthorizationResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id);
      const userId = parseSnowflakeParam('user_id', request.user_id);
      await Promise.all([applications.get(applicationId), users.get(userId)]);
      return {
        removed: await grants.removeAuthorization(applicationId.toString(), userId.toString(), now()),
      };
    },

    async RemoveGuildInstallation(
      request: oauth.RemoveGuildInstallationRequest__Output,
    ): Promise<oauth.RemoveGuildInstallationResponse> {
      const removed = await installations.removeGuildInstallation(
        parseSnowflakeParam('application_id', request.application_id),
        parseSnowflakeParam('guild_id', request.guild_id),
      );
      return { removed };
    },
  };
}
