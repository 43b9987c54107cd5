import type { Request } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import { call, type BackendClients } from '../clients/backend-clients';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { requireBot } from '../domain/require-scope';

/**
 * `GET /gateway` (anyone: the WebSocket URL) and `GET /gateway/bot` (a bot: the URL,
 * the recommended shard count and its session start limit; any other valid token is
 * 403 / 20002, not 401), both from the dispatcher, which runs the gateway. discord.js
 * connects to `${url}?v=10&encoding=json`.
 */
export function gatewayRoutes(backends: BackendClients, auth: Authenticator): Route[] {
  const { dispatcher } = backends;
  return [
    {
      method: 'get',
      path: '/gateway',
      handlers: [
        async (_req, res) => {
          const answer = await call(dispatcher, dispatcher.GetGateway, { application_id: '' });
          sendJson(res, 200, { url: answer.url });
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
          const answer = await call(dispatcher, dispatcher.GetGateway, {
            application_id: principal.applicationId,
          });
          const limit = answer.session_start_limit;
          sendJson(res, 200, {
            url: answer.url,
            shards: answer.shards,
            session_start_limit: {
              total: limit?.total ?? 1000,
              remaining: limit?.remaining ?? 1000,
              reset_after: Number(limit?.reset_after ?? 0),
              max_concurrency: limit?.max_concurrency ?? 1,
            },
          });
        },
      ],
    },
  ];
}
