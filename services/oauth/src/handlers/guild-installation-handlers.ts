import type { oauth } from '@acs/protos';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import type { PrismaClient } from '../generated/prisma/client';
import { listGuildInstallations } from '../store/list-guild-installations';

/** `ListGuildInstallations`: the apps of a guild in one call (command-registry's picker index). */
export function createGuildInstallationHandlers(prisma: PrismaClient) {
  return {
    async ListGuildInstallations(
      request: oauth.ListGuildInstallationsRequest__Output,
    ): Promise<oauth.ListGuildInstallationsResponse> {
      const installed = await listGuildInstallations(
        prisma,
        parseSnowflakeParam('guild_id', request.guild_id),
      );
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
