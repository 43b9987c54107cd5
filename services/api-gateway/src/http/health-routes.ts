import * as grpc from '@grpc/grpc-js';
import type { Express } from 'express';
import type { BackendClients } from '../clients/backend-clients';
import { sendJson } from './send-json';

/** grpc.health.v1 Check, called with a generic client over an existing channel. */
function checkServing(client: grpc.Client, deadlineMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (arg: Buffer) => arg,
      (buffer: Buffer) => buffer,
      // HealthCheckRequest{service: ""} encodes to an empty message.
      Buffer.alloc(0),
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
      (error, response?: Buffer) => {
        // HealthCheckResponse{status: SERVING(1)} encodes as field 1 varint 1: 0x08 0x01.
        resolve(
          !error &&
            response !== undefined &&
            response.length === 2 &&
            response[0] === 0x08 &&
            response[1] === 1,
        );
      },
    );
  });
}

/**
 * `/healthz`: the process is up. `/readyz`: every backend answers SERVING on its gRPC
 * health service (which in turn reflects its database), so traffic can be routed here.
 */
export function mountHealthRoutes(app: Express, backends: BackendClients, isDraining: () => boolean): void {
  app.get('/healthz', (_req, res) => sendJson(res, 200, { status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const entries = Object.entries(backends) as Array<[string, grpc.Client]>;
    const results = await Promise.all(
      entries.map(async ([name, client]) => [name, await checkServing(client, 1000)] as const),
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
