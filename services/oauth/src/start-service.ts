import { PrismaPg } from '@prisma/adapter-pg';
import { schedulePruning } from '@acs/events';
import { loadPermissionsProto } from '@acs/protos';
import { createGrpcClient, startServiceRuntime, type Telemetry } from '@acs/service-kit';
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
  const runtime = await startServiceRuntime(SERVICE_NAME, config, telemetry, {
    database: { schema: DB_SCHEMA, snowflakes: true, outbox: true },
  });
  const { logger, pool, ids: snowflakes } = runtime;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    config.PERMISSIONS_GRPC_URL,
  );
  const retentionMs = config.CREDENTIALS_RETENTION_HOURS * 60 * 60 * 1000;
  const pruning = schedulePruning({
    prune: (signal) => pruneDeadCredentials(pool, new Date(Date.now() - retentionMs), { signal }),
    logger,
    what: 'authorization codes, tokens and grants',
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
    isReady: () => runtime.databaseAnswers(),
    lifetimes: {
      authorizationCode: config.AUTHORIZATION_CODE_TTL_SECONDS,
      accessToken: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshToken: config.REFRESH_TOKEN_TTL_SECONDS,
    },
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  await runtime.reportListening({ grpc: port }, { address: config.GRPC_ADDRESS, port });

  runtime.onShutdown('grpc', () => server.drain());
  // Pruning writes no outbox rows: it may stop after the relay.
  runtime.onShutdown('pruning', () => pruning.stop(), 'connections');
  runtime.onShutdown('permissions client', () => permissionsGrpc.close(), 'connections');
  runtime.onShutdown('prisma', () => prisma.$disconnect(), 'connections');
  runtime.installShutdown();
}
