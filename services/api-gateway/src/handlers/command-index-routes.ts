import type { RequestHandler } from 'express';
import { DiscordError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import { call, type BackendClients } from '../clients/backend-clients';
import { resolveRequestLocale } from '../domain/resolve-request-locale';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { snowflakeParam, snowflakeQuery } from '../http/path-params';
import { requireScope } from '../domain/require-scope';
import { toRegisteredCommand } from './resolve-commands';

/** What the route reads of a command object of the index. */
interface IndexedCommand {
  id: string;
  application_id: string;
  version: string;
}

/**
 * The command picker's view, `GET /guilds/{guild}/application-command-index`: the commands
 * of the apps installed in the guild that this user may use there (in `channel_id` when
 * given), localized for the user. For users only: a client session, or a Bearer token with
 * `guilds` (50026 otherwise; a bot gets 20001). A user who is not a member of the guild
 * gets 403 / 50001, so that the answer says nothing of a guild the user cannot see.
 */
export function commandIndexRoutes(backends: BackendClients, auth: Authenticator): Route[] {
  const { registry, permissions } = backends;

  const index: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bot') throw new DiscordError(403, 20001, 'Bots cannot use this endpoint');
    requireScope(principal, 'guilds');
    const guild_id = snowflakeParam(req, 'guild_id');
    const channel_id = snowflakeQuery(req, 'channel_id');
    // Membership first (no bits, no channel: only is_member; 10004 for an unknown guild),
    // as FilterUsableCommands answers a non-member with an empty list, not an error, and a
    // non-member must not learn which channels the guild has.
    const membership = await call(permissions, permissions.CheckPermissions, {
      guild_id,
      user_id: principal.userId,
      permissions: '0',
      channel_id: '',
    });
    if (!membership.is_member) throw new DiscordError(403, 50001, 'Missing Access');
    const all = await call(registry, registry.ListGuildCommandIndex, {
      guild_id,
      locale: resolveRequestLocale(req.headers, principal.userLocale),
    });
    const commands = JSON.parse(all.commands_json) as IndexedCommand[];
    // The registry's facts of the same commands (the version each got its name at).
    const usable = await call(permissions, permissions.FilterUsableCommands, {
      guild_id,
      channel_id,
      user_id: principal.userId,
      commands: all.commands.map(toRegisteredCommand),
    });
    const allowed = new Set(usable.command_ids);
    const application_commands = commands.filter((c) => allowed.has(c.id));
    const appIds = new Set(application_commands.map((c) => c.application_id));
    const applications = (JSON.parse(all.applications_json) as { id: string }[]).filter((a) =>
      appIds.has(a.id),
    );
    // The index's version: the newest command version in it ("0" when empty).
    const version = application_commands.reduce(
      (max, c) => (BigInt(c.version) > BigInt(max) ? c.version : max),
      '0',
    );
    sendJson(res, 200, { applications, application_commands, version });
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
