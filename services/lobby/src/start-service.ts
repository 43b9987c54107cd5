import { eventStreamOf, startOutboxRelay } from '@acs/events';
import { followMerges } from './events/follow-merges';
import { loadOAuthProto, loadPermissionsProto } from '@acs/protos';
import {
  createDatabasePool,
  createGrpcClient,
  createLogger,
  holdSnowflakeProcessId,
  installGracefulShutdown,
  reportListening,
  type Telemetry,
} from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createOAuthClient } from './clients/oauth-client';
import { createPermissionsClient } from './clients/permissions-client';
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { IdleSweeper } from './store/idle-sweeper';
import { LobbyStore } from './store/lobby-store';

/** Wires config, logger, database, peers, the idle sweeper, outbox relay and gRPC server; stops them in order on SIGTERM. */
export async function startService(
  env: Record<string, string | undefined>,
  telemetry: Telemetry,
): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger(SERVICE_NAME, config.LOG_LEVEL);
  const pool = createDatabasePool({
    databaseUrl: config.DATABASE_URL,
    schema: DB_SCHEMA,
    size: config.DB_POOL_SIZE,
    logger,
  });
  const oauthGrpc = createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, config.OAUTH_GRPC_URL);
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    config.PERMISSIONS_GRPC_URL,
  );
  const snowflakeLease = await holdSnowflakeProcessId(config.SNOWFLAKE_PROCESS_ID, { pool, logger });
  const ids = createSnowflakeGenerator({
    workerId: config.SNOWFLAKE_WORKER_ID,
    processId: snowflakeLease.processId,
  });
  const lobbies = new LobbyStore(pool, ids, config.LOBBY_IDLE_SECOND_MS);
  const sweeper = new IdleSweeper(lobbies, config.LOBBY_SWEEP_INTERVAL_MS, logger);
  sweeper.start();
  const relay = startOutboxRelay({
    pool,
    schema: DB_SCHEMA,
    natsUrl: config.NATS_URL,
    logger,
    name: SERVICE_NAME,
    events: eventStreamOf(config),
  });
  const merges = followMerges({
    natsUrl: config.NATS_URL,
    events: eventStreamOf(config),
    consumerName: config.MERGE_CONSUMER_NAME,
    pool,
    logger,
  });

  const server = createServer({
    logger,
    lobbies,
    oauth: createOAuthClient(oauthGrpc),
    permissions: createPermissionsClient(permissionsGrpc),
    isReady: async () => {
      await pool.query('SELECT 1');
      return true;
    },
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  logger.info({ address: config.GRPC_ADDRESS, port }, 'lobby listening');
  reportListening({ grpc: port, ...(await telemetry.listening()) });

  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', run: () => server.drain() },
      { name: 'idle sweeper', run: () => sweeper.stop() },
      { name: 'merge consumer', run: () => merges.stop() },
      { name: 'outbox relay', run: () => relay.stop() },
      { name: 'oauth client', run: () => oauthGrpc.close() },
      { name: 'permissions client', run: () => permissionsGrpc.close() },
      { name: 'snowflake lease', run: () => snowflakeLease.release() },
      { name: 'database pool', run: () => pool.end() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
