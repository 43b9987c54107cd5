import type { Pool } from 'pg';
import { startEventConsumer, type EventStreamConfig, type RunningConsumer } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import { copyUnmergedMembers } from '../store/copy-unmerged-members';
import { moveMergedMembers } from '../store/move-merged-members';

/**
 * Finishes merges of provisional accounts (oauth's `oauth.user.merged`, written with the
 * merge): their lobby memberships move to the full account. A durable consumer shared by
 * the replicas, so that a merge whose event arrived while lobby was down (or crashed midway:
 * the move is one transaction, acknowledged after it commits) completes when it is back.
 * The move's transaction announces the completion (`lobby.merge.completed`).
 *
 * Unmerges (`oauth.user.unmerged`) have a durable consumer of their own, `<name>-unmerges`
 * (an existing consumer's filter cannot be widened): the full account's memberships of the
 * application are copied to the new provisional account.
 */
export function followMerges(options: {
  natsUrl: string;
  events: EventStreamConfig;
  consumerName: string;
  pool: Pool;
  logger: Logger;
}): RunningConsumer {
  const merges = startEventConsumer({
    nats: { servers: options.natsUrl, name: 'lobby' },
    events: options.events,
    consumer: { name: options.consumerName },
    names: ['oauth.user.merged'] as const,
    logger: options.logger,
    handle: async (event) => {
      const moved = await moveMergedMembers(options.pool, {
        mergeOperationId: event.data.merge_operation_id ?? event.data.source_user_id,
        applicationId: event.data.application_id,
        sourceUserId: event.data.source_user_id,
        destinationUserId: event.data.destination_user_id,
      });
      options.logger.info(
        { applicationId: event.data.application_id, sourceUserId: event.data.source_user_id, moved },
        'lobby memberships of a merged provisional account moved',
      );
    },
  });
  const unmerges = startEventConsumer({
    nats: { servers: options.natsUrl, name: 'lobby' },
    events: options.events,
    consumer: { name: `${options.consumerName}-unmerges` },
    names: ['oauth.user.unmerged'] as const,
    logger: options.logger,
    handle: async (event) => {
      const copied = await copyUnmergedMembers(options.pool, {
        applicationId: event.data.application_id,
        fullUserId: event.data.full_user_id,
        provisionalUserId: event.data.provisional_user_id,
      });
      options.logger.info(
        {
          applicationId: event.data.application_id,
          provisionalUserId: event.data.provisional_user_id,
          copied,
        },
        'lobby memberships copied to an unmerged provisional account',
      );
    },
  });
  return {
    ready: Promise.all([merges.ready, unmerges.ready]).then(() => undefined),
    isConnected: () => merges.isConnected() && unmerges.isConnected(),
    stop: async () => {
      await Promise.all([merges.stop(), unmerges.stop()]);
    },
  };
}
