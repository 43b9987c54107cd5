import { startEventConsumer, type EventStreamConfig, type RunningConsumer } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import { planPermissionCleanup } from '../domain/command-permissions/plan-permission-cleanup';

/** What the consumer deletes with (`CommandPermissionsStore.deleteForCommand`). */
export interface PermissionCleanupTarget {
  deleteForCommand(commandId: string, beforeVersion?: string): Promise<number>;
}

/** The durable consumer's name: one per deployment, shared by the replicas. */
export const COMMAND_EVENTS_DURABLE = 'permissions-command-events';

/** The events that remove permissions. */
export const COMMAND_REMOVAL_EVENTS = [
  'command-registry.command.deleted',
  'command-registry.command.renamed',
] as const;

/**
 * The durable backstop of "deleting or renaming a command deletes its permissions":
 * consumes command-registry's `command.deleted` and `command.renamed` (the one consumer of
 * `@acs/events`) and deletes the rows of the command; an event is acknowledged only after
 * the delete committed. The delete is idempotent (JetStream may redeliver acknowledged
 * messages), so no dedup table. Connects in the background, so the service starts while
 * NATS is down.
 */
export function startCommandEventsConsumer(options: {
  natsUrl: string;
  events: EventStreamConfig;
  store: PermissionCleanupTarget;
  logger: Logger;
  /** Durable consumer name, shared by every replica (default `permissions-command-events`). */
  durableName?: string;
}): RunningConsumer {
  const { store, logger } = options;
  return startEventConsumer({
    nats: { servers: options.natsUrl, name: COMMAND_EVENTS_DURABLE },
    events: options.events,
    consumer: { name: options.durableName ?? COMMAND_EVENTS_DURABLE },
    names: COMMAND_REMOVAL_EVENTS,
    logger,
    handle: async (event) => {
      const cleanup = planPermissionCleanup(event);
      const removed = await store.deleteForCommand(cleanup.commandId, cleanup.beforeVersion);
      if (removed > 0) logger.info({ ...cleanup, removed, eventId: event.id }, 'command permissions deleted');
    },
  });
}
