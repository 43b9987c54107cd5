import { randomBytes } from 'node:crypto';
import { startEventConsumer, type EventStreamConfig, type RunningConsumer } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import type { TokenCache } from '../auth/token-cache';

/** Events of oauth after which an application's cached principals must not be trusted. */
export const CREDENTIAL_EVENTS = [
  'oauth.application.bot_token_reset',
  'oauth.application.deauthorized',
  'oauth.application.credentials_changed',
] as const;

/** Events of oauth after which a user's cached tokens and sessions must not be trusted. */
export const USER_CREDENTIAL_EVENTS = ['oauth.user.deleted', 'oauth.user.banned'] as const;

/** How long NATS keeps a replica's consumer after the replica is gone. */
const CONSUMER_INACTIVE_MS = 60_000;

/**
 * Drops cached principals when oauth announces that an application's credentials changed
 * (bot token reset, an authorization or a client-credentials token revoked, a new owner,
 * new flags), or that a user was deleted or banned (their tokens and sessions are gone),
 * whichever gateway replica handled the change. Each replica reads the events
 * through its own consumer (every replica must see every event), from its start on, with
 * `@acs/events`' one consumer. Without NATS the cache still expires on its own
 * (TOKEN_CACHE_SECONDS), so connecting is retried in the background, never fatal.
 */
export function followCredentialChanges(options: {
  natsUrl: string;
  events: EventStreamConfig;
  cache: TokenCache;
  logger: Logger;
}): RunningConsumer {
  return startEventConsumer({
    nats: { servers: options.natsUrl, name: 'api-gateway' },
    events: options.events,
    consumer: {
      name: `api-gateway-${randomBytes(6).toString('hex')}`,
      scope: 'per-replica',
      inactiveMs: CONSUMER_INACTIVE_MS,
    },
    names: [...CREDENTIAL_EVENTS, ...USER_CREDENTIAL_EVENTS],
    logger: options.logger,
    handle: async (event) => {
      // Rare (a reset, a revocation, a ban) and worth finding again: logged with the change's trace id.
      if (event.name === 'oauth.user.deleted' || event.name === 'oauth.user.banned') {
        options.cache.invalidateUser(event.data.user_id);
        options.logger.info(
          { userId: event.data.user_id, event: event.name },
          'cached tokens of the user dropped',
        );
        return;
      }
      options.cache.invalidateApplication(event.data.application_id);
      options.logger.info(
        { applicationId: event.data.application_id, event: event.name },
        'cached credentials of the application dropped',
      );
    },
  });
}
