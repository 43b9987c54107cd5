import type { Express } from 'express';
import type { PeerClients } from '../clients/peer-clients';
import { sendJson } from './send-json';

/**
 * `/healthz`: the process is up. `/readyz`: every backend answers SERVING on its gRPC
 * health service (which in turn reflects its database), so traffic can be routed here.
 */
export function mountHealthRoutes(app: Express, peers: PeerClients, isDraining: () => boolean): void {
  app.get('/healthz', (_req, res) => sendJson(res, 200, { status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(peers).map(async ([name, peer]) => [name, await peer.isServing(1000)] as const),
    );
    const notReady = results.filter(([, ok]) => !ok).map(([name]) => name);
    const ready = notReady.length === 0 && !isDraining();
    sendJson(
      res,
      ready ? 200 : 503,
      ready ? { status: 'ready' } : { status: 'not ready', waiting_for: notReady },
    );
  });
}
