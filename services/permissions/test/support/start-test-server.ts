import * as grpc from '@grpc/grpc-js';
import { loadPermissionsProto, type permissions } from '@acs/protos';
import { createLogger } from '@acs/service-kit';
import { createServer } from '../../src/create-server';
import type { StoreFixture } from './test-database';

/** The permissions gRPC server over a test database, on a port of its own, and a client of it. */
export interface TestServer {
  client: permissions.PermissionsServiceClient;
  close(): Promise<void>;
}

/** Starts the server as start-service.ts builds it (`createServer`), over the fixture's stores. */
export async function startTestServer(db: StoreFixture): Promise<TestServer> {
  const server = createServer({
    ...db,
    logger: createLogger('permissions', process.env.TEST_LOG ?? 'silent'),
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  const { PermissionsService } = loadPermissionsProto().acs.permissions.v1;
  const client = new PermissionsService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    client,
    async close() {
      client.close();
      await server.drain();
    },
  };
}
