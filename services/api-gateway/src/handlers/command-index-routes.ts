import type { RequestHandler } from 'express';
import { DiscordError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { usableCommandIndex } from '../domain/command-index';
import { resolveRequestLocale } from '../domain/resolve-request-locale';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { snowflakeParam, snowflakeQuery } from '../http/path-params';
import { requireScope } from '../domain/require-scope';

/**
 * The command picker's view, `GET /guilds/{guild}/application-command-index`: the commands
 * of the apps installed in the guild that this user may use there (in `channel_id` when
 * given), localized for the user. For users only: a client session, or a Bearer token with
 * `guilds` (50026 otherwise; a bot gets 20001). A user who is not a member of the guild
 * gets 403 / 50001, so that the answer says nothing of a guild the user cannot see.
 */
export function commandIndexRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const { registry, permissions } = clients;

  const index: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bot') throw new DiscordError(403, 20001, 'Bots cannot use this endpoint');
    requireScope(principal, 'guilds');
    const guild_id = snowflakeParam(req, 'guild_id');
    const channel_id = snowflakeQuery(req, 'channel_id');
    // Membership first (no bits, no channel: only is_member; 10004 for an unknown guild),
    // as FilterUsableCommands answers a non-member with an empty list, not an error, and a
    // non-member must not learn which channels the guild has.
    if (!(await permissions.isMember(guild_id, principal.userId))) {
      throw new DiscordError(403, 50001, 'Missing Access');
    }
    const { commands, applications, registered } = await registry.guildCommandIndex(
      guild_id,
      resolveRequestLocale(req.headers, principal.userLocale),
    );
    // Decided with the registry's facts of the same commands (the version each got its name at).
    const usable = await permissions.filterUsableCommands(guild_id, channel_id, principal.userId, registered);
    sendJson(res, 200, usableCommandIndex(commands, applications, usable));
  };

  return [
    {
      method: 'get',
      path: '/guilds/:guild_id/application-command-index',
      handlers: [index],
      credential: 'token-or-session',
    },
  ];
}
