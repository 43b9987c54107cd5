import { eventStreamOf, startOutboxRelay } from '@acs/events';
import { loadOAuthProto } from '@acs/protos';
import {
  createGrpcClient,
  createLogger,
  installGracefulShutdown,
  reportListening,
  createDatabasePool,
  holdSnowflakeProcessId,
  type Telemetry,
} from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
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
  const logger = createLogger(SERVICE_NAME, config.LOG_LEVEL);
  const pool = createDatabasePool({
    databaseUrl: config.DATABASE_URL,
    schema: DB_SCHEMA,
    size: config.DB_POOL_SIZE,
    logger,
  });
  const oauthGrpc = createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, config.OAUTH_GRPC_URL);
  const snowflakeLease = await holdSnowflakeProcessId(config.SNOWFLAKE_PROCESS_ID, { pool, logger });
  const store = new CommandStore(
    pool,
    createSnowflakeGenerator({ workerId: config.SNOWFLAKE_WORKER_ID, processId: snowflakeLease.processId }),
    { createsWindowSeconds: config.COMMAND_CREATES_WINDOW_SECONDS },
  );
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
    store,
    lookup: new CommandLookup(pool),
    oauth: createOAuthClient(oauthGrpc),
    isReady: async () => {
      await pool.query('SELECT 1');
      return true;
    },
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  logger.info({ address: config.GRPC_ADDRESS, port }, 'command-registry listening');
  reportListening({ grpc: port, ...(await telemetry.listening()) });

  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', run: () => server.drain() },
      { name: 'outbox relay', run: () => relay.stop() },
      { name: 'oauth client', run: () => oauthGrpc.close() },
      { name: 'snowflake lease', run: () => snowflakeLease.release() },
      { name: 'database pool', run: () => pool.end() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
