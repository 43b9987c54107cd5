import type { Request, RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { booleanQuery, integerQuery, limitQuery, snowflakeQuery } from '../http/path-params';
import { requireScope } from '../domain/require-scope';
import { requireGuildsShard, shardOfGuild } from '../domain/guild-shard';
import type { GuildGrant } from '../domain/guild-grant';

/** `limit` of `GET /users/@me/guilds`: 1-200, default 200 (D:resources/user.mdx). */
const MAX_GUILDS_LIMIT = 200;

/**
 * The current user's routes (facts §12): `GET /users/@me` (bot, Bearer `identify`, or the
 * user's own chat-client session, which sees the whole object as Discord's client does),
 * `/users/@me/guilds` (bot: the guilds it is installed in, those of one `shard` when asked,
 * which an app on large bot sharding must; Bearer `guilds`: the user's),
 * `/users/@me/connections` (Bearer `connections`; a bot has none).
 */
export function userRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const { oauth, permissions, dispatcher } = clients;

  /**
   * A bot's guilds: its installations with `bot`, with the permissions granted there (its
   * managed role) on top of @everyone's. `shard` (0 … max_concurrency − 1 of its session
   * start limit) keeps those whose `(guild_id >> 22) % max_concurrency` is that shard.
   */
  async function botGuildGrants(req: Request, applicationId: string): Promise<GuildGrant[]> {
    const { maxConcurrency } = (await dispatcher.botGateway(applicationId)).sessionStartLimit;
    const shard = requireGuildsShard(integerQuery(req, 'shard', 0, maxConcurrency - 1), maxConcurrency);
    const grants = await oauth.listBotGuilds(applicationId);
    return shard === undefined
      ? grants
      : grants.filter((grant) => shardOfGuild(grant.guildId, maxConcurrency) === shard);
  }

  const me: RequestHandler = async (req, res) => {
    // The chat client reads its user with its session token too (no prefix).
    const principal = await auth.authenticate(req, true);
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
    const grants = principal.kind === 'bot' ? await botGuildGrants(req, principal.applicationId) : undefined;
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
