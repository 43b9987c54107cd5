import type { Request } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { requireBot } from '../domain/require-scope';

/**
 * `GET /gateway` (anyone: the WebSocket URL) and `GET /gateway/bot` (a bot: the URL,
 * the recommended shard count and its session start limit; any other valid token is
 * 403 / 20002, not 401), both from the dispatcher, which runs the gateway. discord.js
 * connects to `${url}?v=10&encoding=json`.
 */
export function gatewayRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const { dispatcher } = clients;
  return [
    {
      method: 'get',
      path: '/gateway',
      handlers: [
        async (_req, res) => {
          sendJson(res, 200, { url: await dispatcher.gatewayUrl() });
        },
      ],
    },
    {
      method: 'get',
      path: '/gateway/bot',
      credential: 'token',
      handlers: [
        async (req: Request, res) => {
          const principal = await auth.authenticate(req);
          requireBot(principal);
          const gateway = await dispatcher.botGateway(principal.applicationId);
          const limit = gateway.sessionStartLimit;
          sendJson(res, 200, {
            url: gateway.url,
            shards: gateway.shards,
            session_start_limit: {
              total: limit.total,
              remaining: limit.remaining,
              reset_after: limit.resetAfter,
              max_concurrency: limit.maxConcurrency,
            },
          });
        },
      ],
    },
  ];
}
