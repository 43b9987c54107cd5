import type { Request, RequestHandler, Response } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { CommandScope, CreateQuota } from '../clients/command-registry-client';
import type { PeerClients } from '../clients/peer-clients';
import { assertMayManageCommands } from '../domain/assert-may-manage-commands';
import { commandSyncHeaders, createQuotaHeaders } from '../domain/command-sync-headers';
import type { Principal } from '../domain/principal';
import { resolveRequestLocale } from '../domain/resolve-request-locale';
import { booleanQuery, snowflakeParam } from '../http/path-params';
import { toDiscordError } from '../http/render-error';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/** What a command route answers: a status, a body (none for 204), the scope's quota, more headers. */
interface CommandAnswer {
  status: number;
  body?: unknown;
  quota?: CreateQuota;
  headers?: Record<string, string>;
}

/** The caller and the scope of a command route, once authenticated and allowed. */
interface Caller {
  principal: Principal;
  scope: CommandScope;
}

/**
 * The public command routes, global and guild (`/applications/{app}[/guilds/{guild}]/commands`).
 * Every answer once the scope is known (errors too, a 30034 first of all) carries the
 * ACS-only quota headers X-Command-Creates-Remaining and -Reset-After; a PUT carries
 * X-Command-Sync, and `?dry_run=true` makes it answer what it would do instead of doing it.
 */
export function commandRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { registry } = clients;

  /** Authenticates, checks the path ids and the caller's right to the application. */
  async function callerOf(req: Request): Promise<Caller> {
    const principal = await auth.authenticate(req);
    const applicationId = snowflakeParam(req, 'application_id');
    const guildId = req.params.guild_id === undefined ? undefined : snowflakeParam(req, 'guild_id');
    assertMayManageCommands(principal, applicationId);
    return { principal, scope: { applicationId, guildId } };
  }

  /**
   * A route of one scope. An error the service or the request caused after the scope is
   * known gets the quota headers too (asked separately); a peer's 5xx does not, since asking
   * a failing peer again would only delay the answer.
   */
  function scoped(work: (req: Request, caller: Caller) => Promise<CommandAnswer>): RequestHandler {
    return async (req: Request, res: Response) => {
      const caller = await callerOf(req);
      let answer: CommandAnswer;
      try {
        answer = await work(req, caller);
      } catch (error) {
        if ((toDiscordError(error)?.httpStatus ?? 500) < 500) {
          const quota = await registry.createQuota(caller.scope).catch(() => undefined);
          for (const [name, value] of Object.entries(createQuotaHeaders(quota))) res.setHeader(name, value);
        }
        throw error;
      }
      const headers = { ...createQuotaHeaders(answer.quota), ...answer.headers };
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      if (answer.status === 204) sendNoContent(res);
      else sendJson(res, answer.status, answer.body);
    };
  }

  const list = scoped(async (req, { principal, scope }) => {
    const { commandsJson, quota } = await registry.listCommands(scope, {
      withLocalizations: booleanQuery(req, 'with_localizations'),
      locale: resolveRequestLocale(req.headers, principal.userLocale),
    });
    return { status: 200, body: commandsJson, quota };
  });

  const create = scoped(async (req, { principal, scope }) => {
    const answer = await registry.createCommand(scope, req.rawBody ?? '', principal.applicationFlags);
    return { status: answer.created ? 201 : 200, body: answer.commandJson, quota: answer.quota };
  });

  const overwrite = scoped(async (req, { principal, scope }) => {
    // ACS-only: the dry run validates exactly as the PUT and writes nothing.
    const dryRun = booleanQuery(req, 'dry_run');
    const body = req.rawBody ?? '';
    if (dryRun) {
      const { diffJson, changed, quota } = await registry.previewOverwrite(
        scope,
        body,
        principal.applicationFlags,
      );
      return { status: 200, body: diffJson, quota, headers: commandSyncHeaders(changed) };
    }
    const { commandsJson, changed, quota } = await registry.overwriteCommands(
      scope,
      body,
      principal.applicationFlags,
    );
    return { status: 200, body: commandsJson, quota, headers: commandSyncHeaders(changed) };
  });

  const get = scoped(async (req, { scope }) => {
    const { commandJson, quota } = await registry.getCommand(scope, snowflakeParam(req, 'command_id'));
    return { status: 200, body: commandJson, quota };
  });

  const edit = scoped(async (req, { principal, scope }) => {
    const commandId = snowflakeParam(req, 'command_id');
    const { commandJson, quota } = await registry.editCommand(
      scope,
      commandId,
      req.rawBody ?? '',
      principal.applicationFlags,
    );
    return { status: 200, body: commandJson, quota };
  });

  const remove = scoped(async (req, { scope }) => {
    const { quota } = await registry.deleteCommand(scope, snowflakeParam(req, 'command_id'));
    return { status: 204, quota };
  });

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
