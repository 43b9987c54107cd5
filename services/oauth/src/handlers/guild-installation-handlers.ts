import type { oauth } from '@acs/protos';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import type { HandlerDeps } from './handler-deps';

/** `ListGuildInstallations`: the apps of a guild in one call (command-registry's picker index). */
export function createGuildInstallationHandlers({
  guildInstallations,
}: Pick<HandlerDeps, 'guildInstallations'>) {
  return {
    async ListGuildInstallations(
      request: oauth.ListGuildInstallationsRequest__Output,
    ): Promise<oauth.ListGuildInstallationsResponse> {
      const installed = await guildInstallations.list(parseSnowflakeParam('guild_id', request.guild_id));
      return {
        // An application's bot user has the application's id.
        installations: installed.map((i) => ({
          application_id: i.applicationId,
          scopes: i.scopes,
          name: i.name,
          bot_id: i.applicationId,
        })),
      };
    },
  };
}
