import type { permissions } from '@acs/protos';
import { callUnary, fromGrpcError } from '@acs/service-kit';
import { MissingPermissionsError } from '@acs/discord-errors';
import { MANAGE_GUILD } from '../domain/limits';

/** The permissions service client this service uses. */
export type PermissionsClient = permissions.PermissionsServiceClient;

/**
 * Asks the permissions service whether the user may manage the guild (what installing an
 * app there takes); 403 / 50013 when not. Its own errors (e.g. 404 / 10004 Unknown Guild)
 * pass through unchanged.
 */
export async function requireManageGuild(
  client: PermissionsClient,
  guildId: string,
  userId: string,
): Promise<void> {
  let answer: permissions.CheckPermissionsResponse__Output;
  try {
    answer = await callUnary(client, client.CheckPermissions, {
      guild_id: guildId,
      user_id: userId,
      permissions: MANAGE_GUILD.toString(),
    });
  } catch (error) {
    throw fromGrpcError(error) ?? error;
  }
  if (!answer.allowed) throw new MissingPermissionsError(['MANAGE_GUILD']);
}
