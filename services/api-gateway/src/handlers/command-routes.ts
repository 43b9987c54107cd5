import type { Request, RequestHandler, Response } from 'express';
import { DiscordError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import { hasScope, type Principal } from '../domain/principal';
import { call, type BackendClients } from '../clients/backend-clients';
import { resolveRequestLocale } from '../domain/resolve-request-locale';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';
import { booleanQuery, snowflakeParam } from '../http/path-params';

/** Scope a Bearer token needs to manage its application's commands. */
const COMMANDS_UPDATE_SCOPE = 'applications.commands.update';

/**
 * The caller must be the application's bot, or a Bearer token granted to that
 * application with `applications.commands.update`.
 */
function assertMayManage(principal: Principal, applicationId: string): void {
  if (principal.kind === 'user') throw new DiscordError(401, 0, '401: Unauthorized');
  if (principal.applicationId !== applicationId) {
    throw new DiscordError(403, 20012, 'You are not authorized to perform this action on this application');
  }
  if (principal.kind === 'bearer' && !hasScope(principal, COMMANDS_UPDATE_SCOPE)) {
    throw new DiscordError(403, 50026, `Missing required OAuth2 scope: ${COMMANDS_UPDATE_SCOPE}`);
  }
}

/** The public command routes, global and guild (`/applications/{app}[/guilds/{guild}]/commands`). */
export function commandRoutes(
  backends: BackendClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { registry } = backends;

  /** Authenticates, checks the path ids and the caller's right to the application. */
  async function scopeOf(req: Request) {
    const principal = await auth.authenticate(req);
    const application_id = snowflakeParam(req, 'application_id');
    const guild_id = req.params.guild_id === undefined ? '' : snowflakeParam(req, 'guild_id');
    assertMayManage(principal, application_id);
    return { principal, application_id, guild_id };
  }

  const list: RequestHandler = async (req, res) => {
    const { principal, application_id, guild_id } = await scopeOf(req);
    const answer = await call(registry, registry.ListCommands, {
      application_id,
      guild_id,
      with_localizations: booleanQuery(req, 'with_localizations'),
      locale: resolveRequestLocale(req.headers, principal.userLocale),
    });
    sendJson(res, 200, answer.commands_json);
  };

  const create: RequestHandler = async (req, res) => {
    const { principal, application_id, guild_id } = await scopeOf(req);
    const answer = await call(registry, registry.CreateCommand, {
      application_id,
      guild_id,
      body_json: req.rawBody ?? '',
      application_flags: principal.applicationFlags,
    });
    sendJson(res, answer.created ? 201 : 200, answer.command_json);
  };

  const overwrite: RequestHandler = async (req, res) => {
    const { principal, application_id, guild_id } = await scopeOf(req);
    const answer = await call(registry, registry.BulkOverwriteCommands, {
      application_id,
      guild_id,
      body_json: req.rawBody ?? '',
      application_flags: principal.applicationFlags,
    });
    sendJson(res, 200, answer.commands_json);
  };

  const get: RequestHandler = async (req, res) => {
    const { application_id, guild_id } = await scopeOf(req);
    const command_id = snowflakeParam(req, 'command_id');
    const answer = await call(registry, registry.GetCommand, { application_id, guild_id, command_id });
    sendJson(res, 200, answer.command_json);
  };

  const edit: RequestHandler = async (req, res) => {
    const { principal, application_id, guild_id } = await scopeOf(req);
    const command_id = snowflakeParam(req, 'command_id');
    const answer = await call(registry, registry.EditCommand, {
      application_id,
      guild_id,
      command_id,
      body_json: req.rawBody ?? '',
      application_flags: principal.applicationFlags,
    });
    sendJson(res, 200, answer.command_json);
  };

  const remove: RequestHandler = async (req: Request, res: Response) => {
    const { application_id, guild_id } = await scopeOf(req);
    const command_id = snowflakeParam(req, 'command_id');
    await call(registry, registry.DeleteCommand, { application_id, guild_id, command_id });
    sendNoContent(res);
  };

  const routes: Route[] = [];
  for (const base of ['/applications/:application_id', '/applications/:application_id/guilds/:guild_id']) {
    routes.push(
      { method: 'get', path: `${base}/commands`, handlers: [list], credential: 'token' },
      { method: 'post', path: `${base}/commands`, handlers: [...readBody, create], credential: 'token' },
      { method: 'put', path: `${base}/commands`, handlers: [...readBody, overwrite], credential: 'token' },
      { method: 'get', path: `${base}/commands/:command_id`, handlers: [get], credential: 'token' },
      {
        method: 'patch',
        path: `${base}/commands/:command_id`,
        handlers: [...readBody, edit],
        credential: 'token',
      },
      { method: 'delete', path: `${base}/commands/:command_id`, handlers: [remove], credential: 'token' },
    );
  }
  return routes;
}
