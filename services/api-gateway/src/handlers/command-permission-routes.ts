import type { Request, RequestHandler } from 'express';
import { DiscordError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import { hasScope, type Principal } from '../domain/principal';
import { call, type BackendClients } from '../clients/backend-clients';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { snowflakeParam } from '../http/path-params';
import { requireInstallation } from './require-installation';
import { resolveCommands } from './resolve-commands';

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
  backends: BackendClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { permissions, oauth, registry } = backends;

  function pathIds(req: Request) {
    return {
      application_id: snowflakeParam(req, 'application_id'),
      guild_id: snowflakeParam(req, 'guild_id'),
    };
  }

  /** The command, as command-registry has it in the guild (none for the app-level entry, which is no command). */
  function commandOf(ids: { application_id: string; guild_id: string }, command_id: string) {
    return resolveCommands(registry, ids, command_id === ids.application_id ? [] : [command_id]);
  }

  const list: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    const ids = pathIds(req);
    assertMayRead(principal, ids.application_id);
    const commands = await resolveCommands(registry, ids, 'all');
    const answer = await call(permissions, permissions.ListCommandPermissions, { ...ids, commands });
    sendJson(res, 200, answer.permissions_json);
  };

  const get: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    const ids = pathIds(req);
    assertMayRead(principal, ids.application_id);
    const command_id = snowflakeParam(req, 'command_id');
    const commands = await commandOf(ids, command_id);
    const answer = await call(permissions, permissions.GetCommandPermissions, {
      ...ids,
      command_id,
      commands,
    });
    sendJson(res, 200, answer.permissions_json);
  };

  const put: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    const ids = pathIds(req);
    assertMayEdit(principal, ids.application_id);
    const command_id = snowflakeParam(req, 'command_id');
    await requireInstallation(oauth, ids);
    const commands = await commandOf(ids, command_id);
    const answer = await call(permissions, permissions.UpdateCommandPermissions, {
      ...ids,
      command_id,
      user_id: principal.userId,
      body_json: req.rawBody ?? '',
      commands,
    });
    sendJson(res, 200, answer.permissions_json);
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
