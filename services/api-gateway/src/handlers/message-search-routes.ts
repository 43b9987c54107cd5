import type { Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';

/**
 * Search Guild Messages (D:resources/message.mdx §Search Guild Messages), for a bot or a
 * user's session (an OAuth2 Bearer token is 401). The query string goes to interactions as
 * its `[key, value]` pairs in order (repeated keys are arrays), where every parameter is
 * judged; Node's request-line limit bounds its size. The answer is 200 with the results, or
 * 202 with code 110000 while the guild's messages are not indexed yet.
 */
export function messageSearchRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const search: RequestHandler = async (req, res) => {
    const guildId = snowflakeParam(req, 'guild_id');
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bearer') throw new UnauthorizedError();
    const answer = await clients.interactions.searchGuildMessages({
      guildId,
      userId: principal.userId,
      ...(principal.kind === 'bot'
        ? { applicationId: principal.applicationId, applicationFlags: principal.applicationFlags }
        : {}),
      queryJson: JSON.stringify(queryPairs(req)),
    });
    sendJson(res, answer.status, answer.bodyJson);
  };
  return [
    {
      method: 'get',
      path: '/guilds/:guild_id/messages/search',
      handlers: [search],
      credential: 'token-or-session',
    },
  ];
}

/** The query string's parameters in order, as URLSearchParams decodes them. */
function queryPairs(req: Request): [string, string][] {
  const mark = req.originalUrl.indexOf('?');
  return mark < 0 ? [] : [...new URLSearchParams(req.originalUrl.slice(mark + 1)).entries()];
}
