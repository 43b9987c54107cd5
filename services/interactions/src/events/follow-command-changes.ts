import { randomBytes } from 'node:crypto';
import { startEventConsumer, type EventStreamConfig, type RunningConsumer } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import type { CachedCommandRegistryClient } from '../clients/cached-command-registry-client';

/** How long NATS keeps a replica's consumer after the replica is gone. */
const CONSUMER_INACTIVE_MS = 60_000;

/** The command cache and the feed that keeps it true, for the invocation path. */
export interface FollowedCommands {
  consumer: RunningConsumer;
  /** Whether the feed is live: the cache answers only then. */
  isLive(): boolean;
}

/**
 * Drops an application's cached invocable commands when command-registry announces that
 * one of its scopes changed, whichever replica of either service made the change. Each
 * interactions replica reads the events through its own consumer (every replica must see
 * every event), from its start on; until that consumer exists, and while NATS is away,
 * the cache is bypassed (`isLive`).
 */
export function followCommandChanges(options: {
  natsUrl: string;
  events: EventStreamConfig;
  cache: CachedCommandRegistryClient;
  logger: Logger;
  name: string;
}): FollowedCommands {
  let ready = false;
  const consumer = startEventConsumer({
    nats: { servers: options.natsUrl, name: options.name },
    events: options.events,
    consumer: {
      name: `${options.name}-commands-${randomBytes(6).toString('hex')}`,
      scope: 'per-replica',
      inactiveMs: CONSUMER_INACTIVE_MS,
    },
    names: ['command-registry.scope.changed'],
    logger: options.logger,
    handle: async (event) => {
      options.cache.dropApplication(event.data.application_id);
    },
  });
  void consumer.ready.then(() => {
    ready = true;
  });
  return { consumer, isLive: () => ready && consumer.isConnected() };
}
