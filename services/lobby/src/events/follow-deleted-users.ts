import { startEventConsumer, type EventStreamConfig, type RunningConsumer } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import { UnknownLobbyError } from '../domain/lobby-errors';
import type { LobbyStore } from '../store/lobby-store';

/**
 * Takes a deleted user (oauth's `oauth.user.deleted`, DELETE /admin/users/{id}) out of every
 * lobby, as leaving each one does: the other members' sessions hear LOBBY_MEMBER_REMOVE and
 * the lobby's idle clock restarts. A durable consumer shared by the replicas
 * (`lobby-deleted-users`), so that a deletion announced while lobby was down is applied when
 * it is back; each lobby is left in its own transaction, and a redelivered event finds
 * nothing left to remove.
 */
export function followDeletedUsers(options: {
  natsUrl: string;
  events: EventStreamConfig;
  lobbies: LobbyStore;
  logger: Logger;
}): RunningConsumer {
  return startEventConsumer({
    nats: { servers: options.natsUrl, name: 'lobby' },
    events: options.events,
    consumer: { name: 'lobby-deleted-users' },
    names: ['oauth.user.deleted'] as const,
    logger: options.logger,
    handle: async (event) => {
      const userId = event.data.user_id;
      const memberships = await options.lobbies.membershipsOf(userId);
      for (const { applicationId, lobbyId } of memberships) {
        await options.lobbies.removeMember(applicationId, lobbyId, userId).catch((error: unknown) => {
          // Removed meanwhile (idle, deleted): nothing to leave.
          if (!(error instanceof UnknownLobbyError)) throw error;
        });
      }
      if (memberships.length > 0)
        options.logger.info({ userId, lobbies: memberships.length }, 'a deleted user left their lobbies');
    },
  });
}
