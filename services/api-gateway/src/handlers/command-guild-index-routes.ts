import type { RequestHandler } from 'express';
import { DiscordError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { assertMayManageCommands } from '../domain/assert-may-manage-commands';
import { limitQuery, snowflakeParam, snowflakeQuery } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';

/** Guilds in one page of the index, as `GET /users/@me/guilds`' `limit` (1-200). */
const MAX_COMMAND_GUILDS = 200;

/**
 * ACS-only: `GET /applications/{app}/guild-command-index`, where an application's guild
 * commands live. For the app's bot token only (a Bearer token: 403 / 20002, as Discord's
 * bot-only routes). Answers the guilds holding its commands, by id ascending, paged like
 * `GET /users/@me/guilds` (`after`, `limit` 1-200): `guild_id`, `command_counts` by type
 * (`"1"` CHAT_INPUT, `"2"` USER, `"3"` MESSAGE) and `latest_version`, the highest command
 * version there (its latest create or edit).
 */
export function commandGuildIndexRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const index: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    const applicationId = snowflakeParam(req, 'application_id');
    assertMayManageCommands(principal, applicationId);
    if (principal.kind !== 'bot') throw new DiscordError(403, 20002, 'Only bots can use this endpoint');
    const guilds = await clients.registry.commandGuilds(
      applicationId,
      snowflakeQuery(req, 'after'),
      limitQuery(req, MAX_COMMAND_GUILDS),
    );
    sendJson(
      res,
      200,
      guilds.map((g) => ({
        guild_id: g.guildId,
        command_counts: { 1: g.counts.chatInput, 2: g.counts.user, 3: g.counts.message },
        latest_version: g.latestVersion,
      })),
    );
  };

  return [
    {
      method: 'get',
      path: '/applications/:application_id/guild-command-index',
      handlers: [index],
      credential: 'token',
    },
  ];
}
