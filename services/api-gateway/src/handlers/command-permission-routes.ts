import type { Request, RequestHandler } from 'express';
import { DiscordError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import { hasScope, type Principal } from '../domain/principal';
import type { PeerClients } from '../clients/peer-clients';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { snowflakeParam } from '../http/path-params';

/** The scope a Bearer token needs to read and edit command permissions. */
const PERMISSIONS_UPDATE_SCOPE = 'applications.commands.permissions.update';

/** 403 / 50026 naming the scope (facts §3.2; GH#5239 discord-api-docs). */
function missingScope(): DiscordError {
  return new DiscordError(403, 50026, `Missing required OAuth2 scope: ${PERMISSIONS_UPDATE_SCOPE}`);
}

/** The app's bot, or a Bearer token granted to the app with the permissions scope (OAS). */
function assertMayRead(principal: Principal, applicationId: string): void {
  if (principal.kind === 'user') throw new DiscordError(401, 0, '401: Unauthorized');
  if (principal.applicationId !== applicationId) {
    throw new DiscordError(403, 20012, 'You are not authorized to perform this action on this application');
  }
  if (principal.kind === 'bearer' && !hasScope(principal, PERMISSIONS_UPDATE_SCOPE)) throw missingScope();
}

/**
 * Editing takes a Bearer token of the app with the permissions scope: a bot token is
 * 403 / 20001 (facts §3.2, observed on the real API); the user's guild permissions are
 * checked by permissions (50013 naming the missing ones). The app must be installed in
 * the guild (`requireInstallation`, 50001), for app-level and command entries alike.
 */
function assertMayEdit(principal: Principal, applicationId: string): void {
  if (principal.kind === 'bot') throw new DiscordError(403, 20001, 'Bots cannot use this endpoint');
  assertMayRead(principal, applicationId);
}

/**
 * Application command permissions: `/applications/{app}/guilds/{guild}/commands[/{command}]/permissions`.
 * command-registry is asked first which commands exist (named how, since when), and its
 * answer goes to permissions with the request: permissions calls no other service.
 */
export function commandPermissionRoutes(
  clients: Pick<PeerClients, 'registry' | 'oauth' | 'permissions'>,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { permissions, oauth, registry } = clients;

  function pathIds(req: Request) {
    return {
      applicationId: snowflakeParam(req, 'application_id'),
      guildId: snowflakeParam(req, 'guild_id'),
    };
  }

  /** The command, as command-registry has it in the guild (none for the app-level entry, which is no command). */
  function commandOf(ids: { applicationId: string; guildId: string }, commandId: string) {
    return registry.resolveCommands(
      ids.applicationId,
      ids.guildId,
      commandId === ids.applicationId ? [] : [commandId],
    );
  }

  const list: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    const ids = pathIds(req);
    assertMayRead(principal, ids.applicationId);
    const commands = await registry.resolveCommands(ids.applicationId, ids.guildId, 'all');
    sendJson(res, 200, await permissions.listCommandPermissions({ ...ids, commands }));
  };

  const get: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    const ids = pathIds(req);
    assertMayRead(principal, ids.applicationId);
    const commandId = snowflakeParam(req, 'command_id');
    const commands = await commandOf(ids, commandId);
    sendJson(res, 200, await permissions.getCommandPermissions({ ...ids, commands }, commandId));
  };

  const put: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    const ids = pathIds(req);
    assertMayEdit(principal, ids.applicationId);
    const commandId = snowflakeParam(req, 'command_id');
    // Asked here, at the edge, so that no service calls oauth for it (oauth calls
    // permissions; permissions asking oauth would close a call cycle): 403 / 50001.
    await oauth.requireInstallation(ids.applicationId, ids.guildId);
    const commands = await commandOf(ids, commandId);
    const json = await permissions.updateCommandPermissions(
      { ...ids, commands },
      commandId,
      principal.userId,
      req.rawBody ?? '',
    );
    sendJson(res, 200, json);
  };

  // Batch editing was disabled with permissions v2; the real API answers 405 (facts §2).
  const batchDisabled: RequestHandler = () => {
    throw new DiscordError(405, 0, '405: Method Not Allowed');
  };

  const base = '/applications/:application_id/guilds/:guild_id/commands';
  return [
    { method: 'get', path: `${base}/permissions`, handlers: [list], credential: 'token' },
    { method: 'put', path: `${base}/permissions`, handlers: [batchDisabled] },
    { method: 'get', path: `${base}/:command_id/permissions`, handlers: [get], credential: 'token' },
    {
      method: 'put',
      path: `${base}/:command_id/permissions`,
      handlers: [...readBody, put],
      credential: 'token',
    },
  ];
}
