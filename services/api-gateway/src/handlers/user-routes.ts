import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { booleanQuery, limitQuery, snowflakeQuery } from '../http/path-params';
import { requireScope } from '../domain/require-scope';

/** `limit` of `GET /users/@me/guilds`: 1-200, default 200 (D:resources/user.mdx). */
const MAX_GUILDS_LIMIT = 200;

/**
 * The current user's routes (facts §12): `GET /users/@me` (bot, or Bearer `identify`),
 * `/users/@me/guilds` (bot: the guilds it is installed in; Bearer `guilds`: the user's),
 * `/users/@me/connections` (Bearer `connections`; a bot has none).
 */
export function userRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const { oauth, permissions } = clients;

  const me: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireScope(principal, 'identify');
    sendJson(res, 200, await oauth.getCurrentUser(principal));
  };

  const guilds: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireScope(principal, 'guilds');
    const page = {
      userId: principal.userId,
      before: snowflakeQuery(req, 'before'),
      after: snowflakeQuery(req, 'after'),
      limit: limitQuery(req, MAX_GUILDS_LIMIT),
      withCounts: booleanQuery(req, 'with_counts'),
    };
    // A bot's guilds are its installations with `bot`; its permissions there are the
    // ones granted at installation (its managed role) on top of @everyone's.
    const grants = principal.kind === 'bot' ? await oauth.listBotGuilds(principal.applicationId) : undefined;
    sendJson(res, 200, await permissions.listMemberGuilds(page, grants));
  };

  const connections: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireScope(principal, 'connections');
    sendJson(res, 200, await oauth.listConnections(principal.userId));
  };

  return [
    { method: 'get', path: '/users/@me', handlers: [me], credential: 'token' },
    { method: 'get', path: '/users/@me/guilds', handlers: [guilds], credential: 'token' },
    { method: 'get', path: '/users/@me/connections', handlers: [connections], credential: 'token' },
  ];
}
