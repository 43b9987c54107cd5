import { createBlobStore } from '@acs/blob-store';
import { connectNats, eventStreamOf, hasBotSession, startEventConsumer } from '@acs/events';
import { parseAddressPolicy, WebhookPoster } from '@acs/outbound';
import { loadCommandRegistryProto, loadOAuthProto, loadPermissionsProto } from '@acs/protos';
import { createGrpcClient, startServiceRuntime, type Telemetry } from '@acs/service-kit';
import { CachedCommandRegistryClient } from './clients/cached-command-registry-client';
import { createCommandRegistryClient } from './clients/command-registry-client';
import { CachedOAuthClient } from './clients/cached-oauth-client';
import { createOAuthClient } from './clients/oauth-client';
import { createPermissionsClient } from './clients/permissions-client';
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { DeadlineKeeper } from './delivery/deadline-keeper';
import { HttpDelivery, INTERACTIONS_USER_AGENT } from './delivery/http-delivery';
import { OutcomeListener } from './delivery/outcome-listener';
import { OutcomeWaiter } from './delivery/outcome-waiter';
import { blobReleaser, OrphanBlobSweep } from './blobs/orphan-blob-sweep';
import { createAttachmentSigner } from './domain/messages';
import { followCommandChanges } from './events/follow-command-changes';
import { followOAuthChanges } from './events/follow-oauth-changes';
import { LINKED_LOBBY_EVENTS, postLinkedLobbyMessages } from './events/post-linked-lobby-messages';
import {
  SEARCH_INDEX_EVENTS,
  SearchIndexer,
  indexMessagesForSearch,
} from './events/index-messages-for-search';
import { SearchStore } from './store/search-store';
import { ApplicationFactsMemo } from './handlers/application-facts';
import { createResponder } from './handlers/responder';
import { AttachmentStore } from './store/attachment-rows';
import { FollowOnSourcesStore } from './store/follow-on-sources-store';
import { InteractionStore } from './store/interaction-store';
import { LinkedMessageStore } from './store/linked-message-store';
import { MessageStore, retireExpiredEphemeral } from './store/message-store';
import { storageQuotaSettings } from './store/storage-quota';
import { PinStore } from './store/pin-store';
import { ChannelMessageStore } from './store/channel-message-store';
import { AutoModStore } from './store/automod-store';
import { ReactionStore } from './store/reaction-store';
import { TraceStore } from './store/trace-store';
import { ResponseStore } from './store/response-store';
import { loadSigningKey } from './store/signing-key-store';

/** Bytes of an endpoint's inline answer kept: a whole message with embeds, with room to spare. */
const MAX_INLINE_ANSWER_BYTES = 256 * 1024;

/** Wires config, logger, database, peers, delivery, outbox relay and gRPC server; stops them in order on SIGTERM. */
export async function startService(
  env: Record<string, string | undefined>,
  telemetry: Telemetry,
): Promise<void> {
  const config = loadConfig(env);
  const runtime = await startServiceRuntime(SERVICE_NAME, config, telemetry, {
    database: {
      schema: DB_SCHEMA,
      // The storage triggers read the quota from the connection.
      settings: storageQuotaSettings(config.APPLICATION_STORAGE_QUOTA_BYTES),
      snowflakes: true,
      outbox: true,
    },
  });
  const { logger, pool, ids } = runtime;
  const registryGrpc = createGrpcClient(
    loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService,
    config.COMMAND_REGISTRY_GRPC_URL,
  );
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    config.PERMISSIONS_GRPC_URL,
  );
  const oauthGrpc = createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, config.OAUTH_GRPC_URL);
  // oauth's invocation facts, remembered until oauth announces a change (core subscription per replica).
  const oauth = new CachedOAuthClient(createOAuthClient(oauthGrpc), () => oauthFeed.isLive());
  const oauthFeed = followOAuthChanges({
    natsUrl: config.NATS_URL,
    events: eventStreamOf(config),
    cache: oauth,
    logger,
    name: SERVICE_NAME,
  });
  const windows = {
    deadlineMs: config.INTERACTION_RESPONSE_DEADLINE_MS,
    tokenTtlSeconds: config.INTERACTION_TOKEN_TTL_SECONDS,
    sweepIntervalMs: config.INTERACTION_SWEEP_INTERVAL_MS,
  };
  const interactions = new InteractionStore(pool, windows);
  const signer = createAttachmentSigner(await loadSigningKey(pool, 'attachments'));
  const responses = new ResponseStore(pool, ids, signer);
  const traces = new TraceStore(pool);
  const blobs = createBlobStore(config.BLOB_STORE_URL);
  const attachments = new AttachmentStore(pool);
  const messages = new MessageStore(pool, ids, signer, blobReleaser(blobs, logger));
  const blobSweep = new OrphanBlobSweep({
    blobs,
    attachments,
    retireExpiredEphemeral: () => retireExpiredEphemeral(pool),
    logger,
    orphanAgeMs: config.ATTACHMENT_ORPHAN_AGE_MS,
    intervalMs: config.ATTACHMENT_SWEEP_INTERVAL_MS,
  });
  const applications = new ApplicationFactsMemo(windows.deadlineMs);
  const responder = createResponder({ responses, oauth, applications, traces });
  const poster = new WebhookPoster({
    policy: parseAddressPolicy(config.WEBHOOK_ALLOWED_ADDRESSES),
    timeoutMs: config.INTERACTION_DELIVERY_TIMEOUT_MS ?? config.INTERACTION_RESPONSE_DEADLINE_MS,
    maxSocketsPerDestination: config.INTERACTION_DELIVERY_SOCKETS_PER_ENDPOINT,
    userAgent: INTERACTIONS_USER_AGENT,
    maxAnswerBytes: MAX_INLINE_ANSWER_BYTES,
  });
  const http = new HttpDelivery({
    poster,
    responder,
    fail: (id, failure) => interactions.failIfPending(id, failure, false),
    noteDelivery: (id, delivery, sentAt) => traces.noteDelivery(id, delivery, sentAt),
    logger,
  });
  // Asked when a gateway app's interaction times out: was any bot session there to receive it?
  // Connected in the background (the service starts while NATS is down; until then: not known).
  const probeAbort = new AbortController();
  let probeNats: Awaited<ReturnType<typeof connectNats>> | undefined;
  connectNats({ servers: config.NATS_URL, name: SERVICE_NAME }, { logger, signal: probeAbort.signal }).then(
    (connection) => (probeNats = connection),
    () => undefined,
  );
  const { subjectPrefix } = eventStreamOf(config);
  const deadlines = new DeadlineKeeper(interactions, {
    ...windows,
    logger,
    hasBotSession: async (applicationId) =>
      probeNats ? hasBotSession(probeNats, subjectPrefix, applicationId) : undefined,
  });
  const listener = new OutcomeListener(pool, logger);
  await listener.start();
  // An outcome announced anywhere ends this replica's timer for it.
  listener.subscribe((id) => deadlines.forget(id));
  deadlines.start();
  blobSweep.start();
  const linkedLobbies = startEventConsumer({
    nats: { servers: config.NATS_URL, name: SERVICE_NAME },
    events: eventStreamOf(config),
    consumer: { name: config.LOBBY_CONSUMER_NAME },
    names: LINKED_LOBBY_EVENTS,
    logger,
    handle: postLinkedLobbyMessages(new LinkedMessageStore(pool, ids)),
  });
  // Guild message search: indexes built off the request path and kept current by the
  // service's own message events.
  const search = new SearchStore(pool);
  const searchIndexer = new SearchIndexer(search, config.SEARCH_INDEX_INTERVAL_MS, logger);
  searchIndexer.start();
  const searchFeed = startEventConsumer<(typeof SEARCH_INDEX_EVENTS)[number]>({
    nats: { servers: config.NATS_URL, name: SERVICE_NAME },
    events: eventStreamOf(config),
    consumer: { name: config.SEARCH_CONSUMER_NAME },
    names: SEARCH_INDEX_EVENTS,
    logger,
    handle: indexMessagesForSearch(search),
  });
  // The command an invocation names, remembered until command-registry announces a change.
  let commandsLive = (): boolean => false;
  const registry = new CachedCommandRegistryClient(createCommandRegistryClient(registryGrpc), () =>
    commandsLive(),
  );
  const commandFeed = followCommandChanges({
    natsUrl: config.NATS_URL,
    events: eventStreamOf(config),
    cache: registry,
    logger,
    name: SERVICE_NAME,
  });
  commandsLive = commandFeed.isLive;

  const server = createServer({
    logger,
    oauth,
    registry,
    permissions: createPermissionsClient(permissionsGrpc),
    interactions,
    sources: new FollowOnSourcesStore(pool),
    ids,
    applications,
    http,
    deadlines,
    outcomes: new OutcomeWaiter(listener, interactions),
    windows,
    responder,
    responses,
    messages,
    traces,
    attachments,
    pins: new PinStore(pool),
    channelMessages: new ChannelMessageStore(pool, ids, signer, blobReleaser(blobs, logger)),
    signer,
    storageQuotaBytes: config.APPLICATION_STORAGE_QUOTA_BYTES,
    reactions: new ReactionStore(pool),
    search,
    searchIndexDelayMs: config.SEARCH_INDEX_DELAY_MS,
    automod: new AutoModStore(pool, ids),
    isReady: () => runtime.databaseAnswers(),
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  await runtime.reportListening({ grpc: port }, { address: config.GRPC_ADDRESS, port });

  runtime.onShutdown('grpc', () => server.drain());
  runtime.onShutdown('interaction deliveries', () => http.drain());
  // The deadlines this replica watched are failed by another replica's sweep (or this one's after a restart).
  runtime.onShutdown('deadlines', () => deadlines.stop());
  runtime.onShutdown('outcome listener', () => listener.stop());
  runtime.onShutdown('linked lobbies consumer', () => linkedLobbies.stop());
  runtime.onShutdown('command changes consumer', () => commandFeed.consumer.stop());
  runtime.onShutdown('oauth changes feed', () => oauthFeed.stop());
  runtime.onShutdown('search index consumer', () => searchFeed.stop());
  runtime.onShutdown('search indexer', () => searchIndexer.stop());
  runtime.onShutdown('orphan blob sweep', () => blobSweep.stop());
  const stopProbe = async (): Promise<void> => {
    probeAbort.abort();
    await probeNats?.close();
  };
  runtime.onShutdown('session probe connection', stopProbe, 'connections');
  runtime.onShutdown('endpoint poster', async () => poster.close(), 'connections');
  runtime.onShutdown('command-registry client', () => registryGrpc.close(), 'connections');
  runtime.onShutdown('permissions client', () => permissionsGrpc.close(), 'connections');
  runtime.onShutdown('oauth client', () => oauthGrpc.close(), 'connections');
  runtime.installShutdown();
}
