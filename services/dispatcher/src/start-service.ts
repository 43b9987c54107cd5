import { connectNats, eventStreamOf, schedulePruning, startEventConsumer } from '@acs/events';
import { parseAddressPolicy, WebhookPoster } from '@acs/outbound';
import { loadOAuthProto, loadPermissionsProto } from '@acs/protos';
import { createGrpcClient, startServiceRuntime, type Telemetry } from '@acs/service-kit';
import { createOAuthClient } from './clients/oauth-client';
import { createPermissionsClient } from './clients/permissions-client';
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { crowdOf } from './delivery/gateway/answer-member-request';
import { DispatchBus } from './delivery/gateway/dispatch-bus';
import { startGatewayServer } from './delivery/gateway/gateway-server';
import { PresenceAnnouncer } from './delivery/gateway/presence-announcer';
import { SessionRegistry } from './delivery/gateway/session-registry';
import { WebhookWorker } from './delivery/webhooks/webhook-worker';
import { DISPATCHED_EVENTS } from './domain/plan-event';
import { deliverEvents } from './events/deliver-events';
import { DeliveryStore } from './store/delivery-store';
import { IdentifyStore } from './store/identify-store';
import { PRESENCE_STALE_AFTER_MS, PresenceStore } from './store/presence-store';
import { MemberRequestStore } from './store/member-request-store';

/**
 * Wires config, database, NATS, the event consumer, the webhook worker, the pruning of
 * old records, the WebSocket gateway and the gRPC server; stops them in order on SIGTERM
 * (stop taking new work, finish what is in hand, then close connections).
 */
export async function startService(
  env: Record<string, string | undefined>,
  telemetry: Telemetry,
): Promise<void> {
  const config = loadConfig(env);
  // No outbox (it publishes nothing through one) and no snowflakes (it mints no ids).
  const runtime = await startServiceRuntime(SERVICE_NAME, config, telemetry, {
    database: { schema: DB_SCHEMA },
  });
  const { logger, pool } = runtime;
  const events = eventStreamOf(config);
  const oauthGrpc = createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, config.OAUTH_GRPC_URL);
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    config.PERMISSIONS_GRPC_URL,
  );
  const oauth = createOAuthClient(oauthGrpc);
  const permissions = createPermissionsClient(permissionsGrpc);
  const store = new DeliveryStore(pool);
  const identifies = new IdentifyStore(pool, {
    total: config.SESSION_START_LIMIT,
    windowMs: config.SESSION_START_WINDOW_MS,
    maxConcurrency: config.IDENTIFY_MAX_CONCURRENCY,
    concurrencyWindowMs: config.IDENTIFY_CONCURRENCY_WINDOW_MS,
  });
  const memberRequests = new MemberRequestStore(pool, config.ALL_MEMBERS_REQUEST_INTERVAL_MS);
  const nats = await connectNats({ servers: config.NATS_URL, name: SERVICE_NAME }, { logger });
  const bus = new DispatchBus(nats, config.EVENTS_SUBJECT_PREFIX);
  const presenceStore = new PresenceStore(pool);
  const presences = new PresenceAnnouncer({ store: presenceStore, oauth, permissions, bus, logger });
  // This replica's sessions' presences stay counted while it lives (see PresenceStore).
  const renewPresences = setInterval(() => {
    presenceStore.renew().catch((error: unknown) => logger.warn({ err: error }, 'presences not renewed'));
  }, PRESENCE_STALE_AFTER_MS / 3);
  renewPresences.unref();
  const registry = new SessionRegistry(bus, {
    resumeWindowMs: config.RESUME_WINDOW_MS,
    replayBufferSize: config.REPLAY_BUFFER_SIZE,
    canViewChannel: (userId, guildId, channelId) => permissions.canViewChannel(userId, guildId, channelId),
    guildView: (guildId, viewerId) => permissions.guild(guildId, viewerId),
    crowdOf: (guildId, botUserId, largeThreshold) =>
      crowdOf({ oauth, permissions, presences }, guildId, botUserId, largeThreshold),
    logger,
    onSessionEnd: (session) => presences.end(session.id),
  });
  const poster = new WebhookPoster({
    policy: parseAddressPolicy(config.WEBHOOK_ALLOWED_ADDRESSES),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxSocketsPerDestination: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
    userAgent: 'ACS-Dispatcher (webhook events, 1)',
  });
  const worker = new WebhookWorker({
    store,
    oauth,
    poster,
    logger,
    concurrency: config.WEBHOOK_CONCURRENCY,
    concurrencyPerEndpoint: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
    timeScale: config.WEBHOOK_TIME_SCALE,
    disableAfterFailures: config.WEBHOOK_DISABLE_AFTER_FAILURES,
    leaseMs: config.WEBHOOK_LEASE_MS,
  });

  const gatewayContext = {
    registry,
    oauth,
    permissions,
    identifies,
    memberRequests,
    logger,
    privilegedIntentsGuildThreshold: config.PRIVILEGED_INTENTS_GUILD_THRESHOLD,
    heartbeatIntervalMs: config.HEARTBEAT_INTERVAL_MS,
    identifyTimeoutMs: config.IDENTIFY_TIMEOUT_MS,
    publicUrl: config.GATEWAY_PUBLIC_URL ?? '',
    presences,
  };
  const gateway = await startGatewayServer(gatewayContext, {
    host: config.GATEWAY_HOST,
    port: config.GATEWAY_PORT,
    maxConnectionsPerAddress: config.GATEWAY_MAX_CONNECTIONS_PER_ADDRESS,
    trustProxy: config.TRUST_PROXY,
  });
  // By default the port it is bound to (GATEWAY_PORT 0 lets the OS choose), known only now,
  // before the first connection's READY carries it.
  const publicUrl = config.GATEWAY_PUBLIC_URL ?? `ws://127.0.0.1:${gateway.port}`;
  gatewayContext.publicUrl = config.GATEWAY_RESUME_URL ?? publicUrl;
  worker.start();
  // One durable consumer shared by the replicas; JetStream may redeliver acknowledged
  // events, so ids already handled (recorded with their deliveries) are dropped.
  const consumer = startEventConsumer({
    nats,
    events,
    consumer: { name: config.CONSUMER_NAME, ackWaitMs: config.CONSUMER_ACK_WAIT_MS, maxAckPending: 5000 },
    names: DISPATCHED_EVENTS,
    seen: (ids) => store.seen(ids),
    logger,
    batchSize: 500,
    handleBatch: deliverEvents({
      store,
      oauth,
      permissions,
      bus,
      onDeliveriesRecorded: () => worker.wake(),
    }),
  });
  await consumer.ready;
  const pruning = schedulePruning({
    prune: async (signal) =>
      (await store.prune(events.maxAgeMs, { signal })) +
      (await identifies.prune()) +
      (await presenceStore.prune()) +
      (await memberRequests.prune()),
    logger,
    what: 'handled events, finished webhook deliveries, identifies and member requests past their windows and stale presences',
  });

  const server = createServer({
    logger,
    oauth,
    poster,
    deliveries: store,
    identifies,
    publicUrl,
    isReady: async () => (await runtime.databaseAnswers()) && !nats.isClosed(),
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  await runtime.reportListening(
    { grpc: port, gateway: gateway.port },
    { address: config.GRPC_ADDRESS, port, gateway: publicUrl },
  );

  runtime.onShutdown('grpc', () => server.drain());
  runtime.onShutdown('gateway', () => (clearInterval(renewPresences), registry.closeAll(), gateway.close()));
  runtime.onShutdown('event consumer', () => consumer.stop());
  runtime.onShutdown('webhook worker', () => worker.stop());
  runtime.onShutdown('webhook sockets', () => poster.close());
  runtime.onShutdown('pruning', () => pruning.stop());
  runtime.onShutdown('nats', () => nats.drain(), 'connections');
  runtime.onShutdown('grpc clients', () => (oauthGrpc.close(), permissionsGrpc.close()), 'connections');
  runtime.installShutdown();
}
