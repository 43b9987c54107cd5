import { loadOAuthProto } from '@acs/protos';
import { createGrpcClient, startServiceRuntime, type Telemetry } from '@acs/service-kit';
import { createOAuthClient } from './clients/oauth-client';
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { CommandLookup } from './store/command-lookup';
import { CommandStore } from './store/command-store';

/** Wires config, logger, database, outbox relay and gRPC server; stops them in order on SIGTERM. */
export async function startService(
  env: Record<string, string | undefined>,
  telemetry: Telemetry,
): Promise<void> {
  const config = loadConfig(env);
  const runtime = await startServiceRuntime(SERVICE_NAME, config, telemetry, {
    database: { schema: DB_SCHEMA, snowflakes: true, outbox: true },
  });
  const { logger, pool } = runtime;
  const oauthGrpc = createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, config.OAUTH_GRPC_URL);
  const store = new CommandStore(pool, runtime.ids, {
    createsWindowSeconds: config.COMMAND_CREATES_WINDOW_SECONDS,
  });

  const server = createServer({
    logger,
    store,
    lookup: new CommandLookup(pool),
    oauth: createOAuthClient(oauthGrpc),
    isReady: () => runtime.databaseAnswers(),
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  await runtime.reportListening({ grpc: port }, { address: config.GRPC_ADDRESS, port });

  runtime.onShutdown('grpc', () => server.drain());
  runtime.onShutdown('oauth client', () => oauthGrpc.close(), 'connections');
  runtime.installShutdown();
}
