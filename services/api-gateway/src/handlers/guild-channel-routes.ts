import type { RequestHandler } from 'express';
import { UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/**
 * A bot's guild channel routes:
 * - `GET /guilds/{guild.id}/channels` (D:resources/guild.mdx §Get Guild Channels): the
 *   guild's channels, no threads, without those the bot may not view
 *   (D:topics/permissions.mdx §Channel Visibility); 404 / 10004 for an unknown guild,
 *   403 / 50001 for a guild the bot is not in.
 * - `PUT` and `DELETE /channels/{channel.id}/permissions/{overwrite.id}`
 *   (D:resources/channel.mdx §Edit Channel Permissions, §Delete Channel Permission): 204;
 *   MANAGE_ROLES and the bits the bot may grant are checked by permissions.
 * Bot tokens, and for the list a user's chat-client session too (the channels that user may
 * view, as the client's channel list shows them: the console reads a guild that way). The
 * OpenAPI file gives these no OAuth2 scope, and a Bearer token gets 401 as on the other
 * routes that take none.
 */
export function guildChannelRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { permissions } = clients;

  async function botOf(req: Parameters<RequestHandler>[0]): Promise<string> {
    const principal = await auth.authenticate(req);
    if (principal.kind !== 'bot') throw new UnauthorizedError();
    return principal.userId;
  }

  const list: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bearer') throw new UnauthorizedError();
    const guildId = snowflakeParam(req, 'guild_id');
    sendJson(res, 200, await permissions.listGuildChannels(guildId, principal.userId));
  };

  const edit: RequestHandler = async (req, res) => {
    const botId = await botOf(req);
    const channelId = snowflakeParam(req, 'channel_id');
    const overwriteId = snowflakeParam(req, 'overwrite_id');
    await permissions.editChannelPermission(channelId, overwriteId, botId, req.rawBody ?? '');
    sendNoContent(res);
  };

  const remove: RequestHandler = async (req, res) => {
    const botId = await botOf(req);
    const channelId = snowflakeParam(req, 'channel_id');
    const overwriteId = snowflakeParam(req, 'overwrite_id');
    await permissions.deleteChannelPermission(channelId, overwriteId, botId);
    sendNoContent(res);
  };

  return [
    { method: 'get', path: '/guilds/:guild_id/channels', handlers: [list], credential: 'token' },
    {
      method: 'put',
      path: '/channels/:channel_id/permissions/:overwrite_id',
      handlers: [...readBody, edit],
      credential: 'token',
    },
    {
      method: 'delete',
      path: '/channels/:channel_id/permissions/:overwrite_id',
      handlers: [remove],
      credential: 'token',
    },
  ];
}
