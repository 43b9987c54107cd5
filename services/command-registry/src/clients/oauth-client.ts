import type { oauth } from '@acs/protos';
import { callPeer } from '@acs/service-kit';

/** An application installed in a guild, as oauth lists it. */
export interface GuildInstallation {
  applicationId: string;
  /** The scopes it is installed with there. */
  scopes: string[];
  name: string;
  /** Its bot user (whose id is the application id). */
  botId: string;
}

/**
 * What command-registry asks of oauth: where applications are installed. A failure oauth
 * answers with its own error rejects with that DiscordError (e.g. 403 / 50001 for an
 * application not installed in the guild); one in transport with 503 or 504.
 */
export interface OAuthClient {
  /** The scopes the application is installed with in the guild; 403 / 50001 when it is not installed there. */
  installationScopes(applicationId: string, guildId: string): Promise<string[]>;
  /** Every application installed in the guild (one call), by application id. */
  listGuildInstallations(guildId: string): Promise<GuildInstallation[]>;
}

/** The OAuthClient over oauth's gRPC client. */
export function createOAuthClient(client: oauth.OAuthServiceClient): OAuthClient {
  const call = <Req, Res>(method: Parameters<typeof callPeer<Req, Res>>[1], request: Req): Promise<Res> =>
    callPeer(client, method, request);

  return {
    async installationScopes(applicationId, guildId) {
      const answer = await call(client.GetInstallation, { application_id: applicationId, guild_id: guildId });
      return answer.scopes;
    },

    async listGuildInstallations(guildId) {
      const answer = await call(client.ListGuildInstallations, { guild_id: guildId });
      return answer.installations.map((i) => ({
        applicationId: i.application_id,
        scopes: i.scopes,
        name: i.name,
        botId: i.bot_id,
      }));
    },
  };
}
