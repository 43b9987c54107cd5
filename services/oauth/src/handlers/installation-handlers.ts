import type { oauth } from '@acs/protos';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import type { HandlerDeps } from './handler-deps';

/** Handlers that read or end installations and authorizations (bot guilds, deauthorization). */
export function createInstallationHandlers({
  applications,
  users,
  installations,
  grants,
  permissions,
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
      const applicationId = parseSnowflakeParam('application_id', request.application_id);
      const guildId = parseSnowflakeParam('guild_id', request.guild_id);
      const removed = await installations.removeGuildInstallation(applicationId, guildId);
      // After the commit, and only for an install that existed (the id may be any
      // member's): should this call fail, api-gateway's retry of the DELETE finds no
      // install and removes the bot as a member, which takes its managed role too.
      if (removed) await permissions.removeBotMember(guildId.toString(), applicationId.toString());
      return { removed };
    },
  };
}
