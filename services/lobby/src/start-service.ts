import { eventStreamOf } from '@acs/events';
import { loadOAuthProto, loadPermissionsProto } from '@acs/protos';
import { createGrpcClient, startServiceRuntime, type Telemetry } from '@acs/service-kit';
import { createOAuthClient } from './clients/oauth-client';
import { createPermissionsClient } from './clients/permissions-client';
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { followDeletedUsers } from './events/follow-deleted-users';
import { followMerges } from './events/follow-merges';
import { IdleSweeper } from './store/idle-sweeper';
import { LobbyStore } from './store/lobby-store';

/** Wires config, logger, database, peers, the idle sweeper, outbox relay and gRPC server; stops them in order on SIGTERM. */
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
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    config.PERMISSIONS_GRPC_URL,
  );
  const lobbies = new LobbyStore(pool, runtime.ids, config.LOBBY_IDLE_SECOND_MS);
  const sweeper = new IdleSweeper(lobbies, config.LOBBY_SWEEP_INTERVAL_MS, logger);
  sweeper.start();
  const merges = followMerges({
    natsUrl: config.NATS_URL,
    events: eventStreamOf(config),
    consumerName: config.MERGE_CONSUMER_NAME,
    pool,
    logger,
  });
  const deletedUsers = followDeletedUsers({
    natsUrl: config.NATS_URL,
    events: eventStreamOf(config),
    lobbies,
    logger,
  });

  const server = createServer({
    logger,
    lobbies,
    oauth: createOAuthClient(oauthGrpc),
    permissions: createPermissionsClient(permissionsGrpc),
    isReady: () => runtime.databaseAnswers(),
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  await runtime.reportListening({ grpc: port }, { address: config.GRPC_ADDRESS, port });

  runtime.onShutdown('grpc', () => server.drain());
  runtime.onShutdown('idle sweeper', () => sweeper.stop());
  runtime.onShutdown('merge consumer', () => merges.stop());
  runtime.onShutdown('deleted users consumer', () => deletedUsers.stop());
  runtime.onShutdown('oauth client', () => oauthGrpc.close(), 'connections');
  runtime.onShutdown('permissions client', () => permissionsGrpc.close(), 'connections');
  runtime.installShutdown();
}
