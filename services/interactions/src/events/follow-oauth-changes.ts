import { followEventsLive, type EventStreamConfig, type LiveEventFeed } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import {
  APPLICATION_FACT_EVENTS,
  USER_FACT_EVENTS,
  type CachedOAuthClient,
} from '../clients/cached-oauth-client';

/**
 * Keeps the cached invocation facts true: oauth's events drop an application's answers
 * (or all of them, for a user's change), heard by every interactions replica through its
 * own NATS core subscription as they are published. While the feed is not live the cache
 * is bypassed; whenever it may have missed an event the cache is emptied.
 */
export function followOAuthChanges(options: {
  natsUrl: string;
  events: Pick<EventStreamConfig, 'subjectPrefix'>;
  cache: CachedOAuthClient;
  logger: Logger;
  name: string;
}): LiveEventFeed {
  const userEvents = new Set<string>(USER_FACT_EVENTS);
  return followEventsLive({
    nats: { servers: options.natsUrl, name: `${options.name}-oauth-facts` },
    events: options.events,
    names: [...APPLICATION_FACT_EVENTS, ...USER_FACT_EVENTS],
    logger: options.logger,
    handle: (event) => {
      if (userEvents.has(event.name) || !('application_id' in event.data)) options.cache.dropAll();
      else options.cache.dropApplication(event.data.application_id);
    },
    reset: () => options.cache.dropAll(),
  });
}
