import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createBlobStore } from '@acs/blob-store';
import { startServiceRuntime, type Telemetry } from '@acs/service-kit';
import { createAuthenticator } from './auth/create-authenticator';
import { followCredentialChanges } from './events/follow-credential-changes';
import { closeBackendClients, createBackendClients } from './clients/backend-clients';
import { createPeerClients } from './clients/peer-clients';
import { loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { createLimitCounters } from './store/limit-counters';
import { createTestControl } from './store/create-test-control';

/**
 * Wires config, the peer clients, the authenticator, the credential follower and the HTTP
 * server; drains and stops them in order on SIGTERM.
 */
export async function startService(
  env: Record<string, string | undefined>,
  telemetry: Telemetry,
): Promise<void> {
  const config = loadConfig(env);
  // No database: nothing of its own to store, no outbox, no ids.
  const runtime = await startServiceRuntime(SERVICE_NAME, config, telemetry);
  const { logger } = runtime;
  const backends = createBackendClients({
    registry: config.COMMAND_REGISTRY_GRPC_URL,
    oauth: config.OAUTH_GRPC_URL,
    permissions: config.PERMISSIONS_GRPC_URL,
    dispatcher: config.DISPATCHER_GRPC_URL,
    interactions: config.INTERACTIONS_GRPC_URL,
    lobby: config.LOBBY_GRPC_URL,
  });
  const clients = createPeerClients(backends);
  let draining = false;
  const auth = createAuthenticator(clients.oauth, {
    maxCacheSeconds: config.TOKEN_CACHE_SECONDS,
    unknownTokenSeconds: config.UNKNOWN_TOKEN_CACHE_SECONDS,
  });
  const credentials = followCredentialChanges({
    natsUrl: config.NATS_URL,
    events: { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX },
    cache: auth.cache,
    logger,
  });
  const limitCounters = createLimitCounters({
    url: config.REDIS_URL,
    keyPrefix: config.REDIS_KEY_PREFIX,
    replicas: config.RATE_LIMIT_REPLICAS,
    onError: rateLimitedLog((error) =>
      logger.warn({ err: error }, 'Redis unreachable: the limits count in memory until it answers'),
    ),
  });
  const testControl = createTestControl({
    ...(config.REDIS_URL ? { redisUrl: config.REDIS_URL } : {}),
    keyPrefix: config.REDIS_KEY_PREFIX,
    requestLogSize: config.REQUEST_LOG_SIZE,
    onError: rateLimitedLog((error) =>
      logger.warn({ err: error }, 'Redis unreachable: request log entries are dropped and no fault applies'),
    ),
  });
  // The first requests count in Redis too, unless it is down (then in memory, as in an outage).
  await limitCounters.ready(2_000);
  const server = createServer({
    clients,
    auth,
    logger,
    adminToken: config.ADMIN_TOKEN,
    maxBodyBytes: config.MAX_BODY_BYTES,
    requestDeadlineMs: config.REQUEST_DEADLINE_MS,
    largeBodyBytesPerSecond: config.LARGE_BODY_BYTES_PER_SECOND,
    rateLimits: {
      globalPerSecond: config.RATE_LIMIT_GLOBAL_PER_SECOND,
      routeLimit: config.RATE_LIMIT_ROUTE_LIMIT,
      routeWindowSeconds: config.RATE_LIMIT_ROUTE_WINDOW_SECONDS,
      buckets: {
        reactions: { limit: config.RATE_LIMIT_REACTIONS_PER_SECOND, windowSeconds: 1 },
        webhook: {
          limit: config.RATE_LIMIT_WEBHOOK_LIMIT,
          windowSeconds: config.RATE_LIMIT_WEBHOOK_WINDOW_SECONDS,
        },
      },
      workPerSecond: config.RATE_LIMIT_WORK_PER_SECOND,
      costs: { invocation: config.RATE_LIMIT_INVOCATION_COST },
    },
    limitCounters,
    testControl,
    lobbyRateLimits: {
      write: { limit: config.LOBBY_RATE_LIMIT, windowSeconds: config.LOBBY_RATE_LIMIT_WINDOW_SECONDS },
      link: { limit: config.LOBBY_LINK_RATE_LIMIT, windowSeconds: config.LOBBY_RATE_LIMIT_WINDOW_SECONDS },
    },
    invalidRequestLimits: {
      limit: config.INVALID_REQUEST_LIMIT,
      windowSeconds: config.INVALID_REQUEST_WINDOW_SECONDS,
    },
    trustProxy: config.TRUST_PROXY,
    ...(config.CONSOLE_ENABLED === 'true' ? { consoleDir: resolve(config.CONSOLE_DIR) } : {}),
    isDraining: () => draining,
    httpTimeouts: {
      requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    blobs: createBlobStore(config.BLOB_STORE_URL),
    ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
  });
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  // The bound port: PORT 0 lets the OS choose one.
  const { port } = server.address() as AddressInfo;
  await runtime.reportListening(
    { http: port },
    { host: config.HOST, port, limits: limitCounters.store, testControl: testControl.log.store },
  );

  runtime.onShutdown(
    'http',
    () =>
      new Promise<void>((resolve) => {
        draining = true;
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  runtime.onShutdown('credential events', () => credentials.stop());
  runtime.onShutdown('redis', () => limitCounters.close(), 'connections');
  runtime.onShutdown('test control', () => testControl.close(), 'connections');
  runtime.onShutdown('grpc clients', () => closeBackendClients(backends), 'connections');
  runtime.installShutdown();
}

/** Calls `log` at most once every 10 s: a Redis that is down reports an error per reconnection. */
function rateLimitedLog(log: (error: Error) => void): (error: Error) => void {
  let last = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < 10_000) return;
    last = now;
    log(error);
  };
}
