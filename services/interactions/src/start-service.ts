import { eventStreamOf, startOutboxRelay } from '@acs/events';
import { loadCommandRegistryProto, loadOAuthProto, loadPermissionsProto } from '@acs/protos';
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
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { createResponder } from './handlers/responder';
import { MessageStore } from './store/message-store';
import { ResponseStore } from './store/response-store';

/** Wires config, logger, database, peers, outbox relay and gRPC server; stops them in order on SIGTERM. */
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
  const registryGrpc = createGrpcClient(
    loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService,
    config.COMMAND_REGISTRY_GRPC_URL,
  );
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    config.PERMISSIONS_GRPC_URL,
  );
  const oauthGrpc = createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, config.OAUTH_GRPC_URL);
  const snowflakeLease = await holdSnowflakeProcessId(config.SNOWFLAKE_PROCESS_ID, { pool, logger });
  const ids = createSnowflakeGenerator({
    workerId: config.SNOWFLAKE_WORKER_ID,
    processId: snowflakeLease.processId,
  });
  const oauth = createOAuthClient(oauthGrpc);
  const responses = new ResponseStore(pool, ids);
  const messages = new MessageStore(pool, ids);
  const relay = startOutboxRelay({
    pool,
    schema: DB_SCHEMA,
    natsUrl: config.NATS_URL,
    logger,
    name: SERVICE_NAME,
    events: eventStreamOf(config),
  });

  const server = createServer({
    logger,
    responder: createResponder({ responses, oauth }),
    responses,
    messages,
    oauth,
    isReady: async () => {
      await pool.query('SELECT 1');
      return true;
    },
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  logger.info({ address: config.GRPC_ADDRESS, port }, 'interactions listening');
  reportListening({ grpc: port });

  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', run: () => server.drain() },
      { name: 'outbox relay', run: () => relay.stop() },
      { name: 'command-registry client', run: () => registryGrpc.close() },
      { name: 'permissions client', run: () => permissionsGrpc.close() },
      { name: 'oauth client', run: () => oauthGrpc.close() },
      { name: 'snowflake lease', run: () => snowflakeLease.release() },
      { name: 'database pool', run: () => pool.end() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
