import * as grpc from '@grpc/grpc-js';
import { loadOAuthProto, type oauth } from '@acs/protos';
import {
  callUnary,
  CLIENT_CHANNEL_OPTIONS,
  createLogger,
  fromGrpcError,
  type GrpcServer,
} from '@acs/service-kit';
import { type DiscordError } from '@acs/discord-errors';
import { createServer } from '../../src/create-server';
import type { OAuthTestEnv } from './oauth-test-env';

/** The oauth service served over real gRPC on a free port, and a client of it. */
export interface OAuthOverGrpc {
  client: oauth.OAuthServiceClient;
  /** Calls an RPC by name with a deadline. */
  call<Req, Res>(method: keyof oauth.OAuthServiceClient & string, request: Req): Promise<Res>;
  /** The DiscordError a call fails with, read back from the gRPC status detail. */
  errorOf(promise: Promise<unknown>): Promise<{ grpcCode: number; error: DiscordError }>;
  close(): Promise<void>;
}

/** Serves the test environment's database through `createServer`, as start-service does. */
export async function serveOverGrpc(env: OAuthTestEnv): Promise<OAuthOverGrpc> {
  const server: GrpcServer = createServer({
    ...env.deps,
    logger: createLogger('oauth-test', 'silent'),
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  const client = new (loadOAuthProto().acs.oauth.v1.OAuthService)(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    CLIENT_CHANNEL_OPTIONS,
  );
  return {
    client,
    call: (method, request) => callUnary(client, client[method] as never, request),
    async errorOf(promise) {
      try {
        await promise;
      } catch (caught) {
        const error = fromGrpcError(caught);
        if (!error) throw caught;
        return { grpcCode: (caught as grpc.ServiceError).code, error };
      }
      throw new Error('expected the call to fail');
    },
    async close() {
      client.close();
      await server.drain();
    },
  };
}
