import { connect, type NatsConnection } from 'nats';
import type { Logger } from '@acs/service-kit';
import type { TokenCache } from './token-cache';

/** Events of oauth after which an application's cached principals must not be trusted. */
const CREDENTIAL_EVENTS = new Set([
  'application.bot_token_reset',
  'application.deauthorized',
  'application.credentials_changed',
]);

/** A running subscription; `stop` ends it. */
export interface CredentialFollower {
  stop(): Promise<void>;
}

/**
 * Drops cached principals when oauth announces that an application's credentials changed
 * (bot token reset, an authorization or a client-credentials token revoked, a new owner,
 * new flags), whichever gateway replica handled the change. The events already travel
 * through JetStream; a core subscription on their subjects sees each as it is published.
 * Without NATS the cache still expires on its own (TOKEN_CACHE_SECONDS), so a failed
 * connection is logged and retried, never fatal.
 */
export function followCredentialChanges(options: {
  natsUrl: string;
  subjectPrefix: string;
  cache: TokenCache;
  logger: Logger;
}): CredentialFollower {
  let nats: NatsConnection | undefined;
  let stopped = false;
  const subject = `${options.subjectPrefix}.oauth.application.>`;
  const running = (async () => {
    for (let delay = 500; !stopped; delay = Math.min(delay * 2, 10_000)) {
      try {
        nats = await connect({ servers: options.natsUrl, name: 'api-gateway', maxReconnectAttempts: -1 });
        break;
      } catch (error) {
        options.logger.warn(
          { err: error, retryInMs: delay },
          'NATS not reachable: cached tokens expire on their own',
        );
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
    if (!nats || stopped) return;
    for await (const message of nats.subscribe(subject)) {
      try {
        const event = message.json<{ type?: string; data?: { application_id?: string } }>();
        const applicationId = event.data?.application_id;
        if (event.type && CREDENTIAL_EVENTS.has(event.type) && applicationId) {
          options.cache.invalidateApplication(applicationId);
        }
      } catch (error) {
        options.logger.warn({ err: error, subject: message.subject }, 'unreadable oauth event');
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await nats?.drain().catch(() => undefined);
      await running.catch(() => undefined);
    },
  };
}
