import { PrismaPg } from '@prisma/adapter-pg';
import { eventStreamOf, schedulePruning, startOutboxRelay } from '@acs/events';
import { loadPermissionsProto } from '@acs/protos';
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
import { parseAddressPolicy, PUBLIC_ONLY } from '@acs/outbound';
import { OidcIssuers } from './clients/oidc-issuers';
import { createPermissionsClient } from './clients/permissions-client';
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { PrismaClient } from './generated/prisma/client';
import { createStores } from './store/create-stores';
import { pruneDeadCredentials } from './store/prune-dead-credentials';

/**
 * Wires config, logger, database, the stores, outbox relay, the pruning of dead credentials
 * and the gRPC server; stops them in order on SIGTERM.
 */
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
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const snowflakeLease = await holdSnowflakeProcessId(config.SNOWFLAKE_PROCESS_ID, { pool, logger });
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    config.PERMISSIONS_GRPC_URL,
  );
  const relay = startOutboxRelay({
    pool,
    schema: DB_SCHEMA,
    natsUrl: config.NATS_URL,
    logger,
    name: SERVICE_NAME,
    events: eventStreamOf(config),
  });
  const retentionMs = config.CREDENTIALS_RETENTION_HOURS * 60 * 60 * 1000;
  const pruning = schedulePruning({
    prune: (signal) => pruneDeadCredentials(pool, new Date(Date.now() - retentionMs), { signal }),
    logger,
    what: 'authorization codes, tokens and grants',
  });

  const snowflakes = createSnowflakeGenerator({
    workerId: config.SNOWFLAKE_WORKER_ID,
    processId: snowflakeLease.processId,
  });
  const server = createServer({
    logger,
    ...createStores(prisma, pool, () => snowflakes.next()),
    permissions: createPermissionsClient(permissionsGrpc),
    oidcIssuers: new OidcIssuers({
      policy: config.OIDC_ALLOW_LOOPBACK_ISSUERS ? parseAddressPolicy('loopback') : PUBLIC_ONLY,
      allowLoopbackIssuers: config.OIDC_ALLOW_LOOPBACK_ISSUERS,
      fetchTimeoutMs: config.OIDC_FETCH_TIMEOUT_MS,
      userAgent: 'ACS-OIDC (+https://discord.com)',
    }),
    allowLoopbackIssuers: config.OIDC_ALLOW_LOOPBACK_ISSUERS,
    snowflakes,
    isReady: async () => {
      await pool.query('SELECT 1');
      return true;
    },
    lifetimes: {
      authorizationCode: config.AUTHORIZATION_CODE_TTL_SECONDS,
      accessToken: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshToken: config.REFRESH_TOKEN_TTL_SECONDS,
    },
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  logger.info({ address: config.GRPC_ADDRESS, port }, 'oauth listening');
  reportListening({ grpc: port, ...(await telemetry.listening()) });

  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', run: () => server.drain() },
      { name: 'outbox relay', run: () => relay.stop() },
      { name: 'pruning', run: () => pruning.stop() },
      { name: 'permissions client', run: () => permissionsGrpc.close() },
      { name: 'prisma', run: () => prisma.$disconnect() },
      { name: 'snowflake lease', run: () => snowflakeLease.release() },
      { name: 'database pool', run: () => pool.end() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
