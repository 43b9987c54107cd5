import { callUnary, fromGrpcError } from '@acs/service-kit';
import type { PermissionsClient } from './require-manage-guild';

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
 * Makes the bot a member of the guild holding a managed role with exactly the granted
 * permissions (the permissions service's `PutBotMember`, idempotent). Its errors pass
 * through as Discord errors.
 */
export async function putBotMember(client: PermissionsClient, grant: BotGrant): Promise<void> {
  try {
    await callUnary(client, client.PutBotMember, {
      guild_id: grant.guildId,
      application_id: grant.applicationId,
      application_name: grant.applicationName,
      permissions: grant.permissions,
    });
  } catch (error) {
    throw fromGrpcError(error) ?? error;
  }
}

/** Takes the bot and its managed role out of the guild (`RemoveBotMember`, idempotent). */
export async function removeBotMember(
  client: PermissionsClient,
  guildId: string,
  applicationId: string,
): Promise<void> {
  try {
    await callUnary(client, client.RemoveBotMember, { guild_id: guildId, application_id: applicationId });
  } catch (error) {
    throw fromGrpcError(error) ?? error;
  }
}
