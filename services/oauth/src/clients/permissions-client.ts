import type { permissions } from '@acs/protos';
import { callPeer } from '@acs/service-kit';

/** What a guild install with the `bot` scope grants the app's bot (user id = application id). */
export interface BotGrant {
  guildId: string;
  applicationId: string;
  /** The managed role's name. */
  applicationName: string;
  /** Decimal bit set; "0" means no managed role. */
  permissions: string;
}

/**
 * What oauth asks of permissions: a user's permissions in a guild, the bot members that
 * guild installs add and remove, and their managed roles' name. A failure permissions answers with its own error
 * rejects with that DiscordError (e.g. 404 / 10004 Unknown Guild); one in transport with
 * 503 or 504.
 */
export interface PermissionsClient {
  /** Whether the user holds every one of `permissions` (a bit set) in the guild. */
  hasPermissions(guildId: string, userId: string, permissions: bigint): Promise<boolean>;
  /**
   * Makes the bot a member of the guild holding a managed role with exactly the granted
   * permissions (`PutBotMember`, idempotent).
   */
  putBotMember(grant: BotGrant): Promise<void>;
  /** Takes the bot and its managed role out of the guild (`RemoveBotMember`, idempotent). */
  removeBotMember(guildId: string, applicationId: string): Promise<void>;
  /** Gives the bot's managed role in every guild the application's new name (`RenameManagedRoles`). */
  renameManagedRoles(applicationId: string, name: string): Promise<void>;
}

/** The PermissionsClient over permissions' gRPC client. */
export function createPermissionsClient(client: permissions.PermissionsServiceClient): PermissionsClient {
  const call = <Req, Res>(method: Parameters<typeof callPeer<Req, Res>>[1], request: Req): Promise<Res> =>
    callPeer(client, method, request);

  return {
    async hasPermissions(guildId, userId, bits) {
      const answer = await call(client.CheckPermissions, {
        guild_id: guildId,
        user_id: userId,
        permissions: bits.toString(),
      });
      return answer.allowed;
    },

    async putBotMember(grant) {
      await call(client.PutBotMember, {
        guild_id: grant.guildId,
        application_id: grant.applicationId,
        application_name: grant.applicationName,
        permissions: grant.permissions,
      });
    },

    async removeBotMember(guildId, applicationId) {
      await call(client.RemoveBotMember, { guild_id: guildId, application_id: applicationId });
    },

    async renameManagedRoles(applicationId, name) {
      await call(client.RenameManagedRoles, { application_id: applicationId, name });
    },
  };
}
