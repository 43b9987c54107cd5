import type { Request, RequestHandler, Response } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { assertMayManageCommands } from '../domain/assert-may-manage-commands';
import { resolveRequestLocale } from '../domain/resolve-request-locale';
import { booleanQuery, snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/** The public command routes, global and guild (`/applications/{app}[/guilds/{guild}]/commands`). */
export function commandRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { registry } = clients;

  /** Authenticates, checks the path ids and the caller's right to the application. */
  async function scopeOf(req: Request) {
    const principal = await auth.authenticate(req);
    const applicationId = snowflakeParam(req, 'application_id');
    const guildId = req.params.guild_id === undefined ? undefined : snowflakeParam(req, 'guild_id');
    assertMayManageCommands(principal, applicationId);
    return { principal, scope: { applicationId, guildId } };
  }

  const list: RequestHandler = async (req, res) => {
    const { principal, scope } = await scopeOf(req);
    const commands = await registry.listCommands(scope, {
      withLocalizations: booleanQuery(req, 'with_localizations'),
      locale: resolveRequestLocale(req.headers, principal.userLocale),
    });
    sendJson(res, 200, commands);
  };

  const create: RequestHandler = async (req, res) => {
    const { principal, scope } = await scopeOf(req);
    const answer = await registry.createCommand(scope, req.rawBody ?? '', principal.applicationFlags);
    sendJson(res, answer.created ? 201 : 200, answer.commandJson);
  };

  const overwrite: RequestHandler = async (req, res) => {
    const { principal, scope } = await scopeOf(req);
    sendJson(
      res,
      200,
      await registry.overwriteCommands(scope, req.rawBody ?? '', principal.applicationFlags),
    );
  };

  const get: RequestHandler = async (req, res) => {
    const { scope } = await scopeOf(req);
    const commandId = snowflakeParam(req, 'command_id');
    sendJson(res, 200, await registry.getCommand(scope, commandId));
  };

  const edit: RequestHandler = async (req, res) => {
    const { principal, scope } = await scopeOf(req);
    const commandId = snowflakeParam(req, 'command_id');
    sendJson(
      res,
      200,
      await registry.editCommand(scope, commandId, req.rawBody ?? '', principal.applicationFlags),
    );
  };

  const remove: RequestHandler = async (req: Request, res: Response) => {
    const { scope } = await scopeOf(req);
    const commandId = snowflakeParam(req, 'command_id');
    await registry.deleteCommand(scope, commandId);
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
