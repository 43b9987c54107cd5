import type { NatsConnection, Subscription } from 'nats';
import { connectNats, type ConnectLogger, type NatsTarget } from './connect-nats';
import type { EventName } from './event-catalog';
import { subjectWithoutPrefix, type EventStreamConfig } from './event-stream';
import { readEvent, type CheckedEvent } from './read-event';

/** A live event feed for a cache: see `followEventsLive`. */
export interface LiveEventFeed {
  /** Whether every event published from now on reaches the handler (connected and subscribed). */
  isLive(): boolean;
  /** Unsubscribes and closes the connection. */
  stop(): Promise<void>;
}

/**
 * Hears events of the catalog as they are published, through a NATS core subscription per
 * event name (not a JetStream consumer): every process that subscribes hears every event,
 * nothing is kept for it while it is away, and nothing is acknowledged. Meant for caches
 * that an event invalidates: a cache answers only while `isLive()`, and `reset` is called
 * whenever the feed may have missed an event (the connection dropped or came back), so
 * that nothing it remembered from before is trusted. Connecting is retried in the
 * background (a service starts while NATS is down); the feed is not live until then.
 * Malformed messages are logged and skipped.
 */
export function followEventsLive<N extends EventName>(options: {
  nats: NatsTarget;
  events: Pick<EventStreamConfig, 'subjectPrefix'>;
  names: readonly N[];
  logger: ConnectLogger;
  handle: (event: CheckedEvent<N>) => void;
  reset: () => void;
}): LiveEventFeed {
  const stopping = new AbortController();
  const names = new Set(options.names);
  let connection: NatsConnection | undefined;
  let subscriptions: Subscription[] = [];
  let live = false;

  const subscribe = (nc: NatsConnection): void => {
    subscriptions = options.names.map((name) =>
      nc.subscribe(`${options.events.subjectPrefix}.${name}`, {
        callback: (error, message) => {
          if (error) return;
          const read = readEvent(
            subjectWithoutPrefix(message.subject, options.events.subjectPrefix),
            message.data,
            names,
          );
          if (read.kind === 'event') options.handle(read.event);
          else if (read.kind === 'invalid')
            options.logger.warn({ subject: message.subject, reason: read.reason }, 'invalid event ignored');
        },
      }),
    );
  };

  const watch = async (nc: NatsConnection): Promise<void> => {
    for await (const status of nc.status()) {
      // Anything but being connected may lose events: forget, and answer without the cache
      // until the server has our subscriptions again (the client resends them on reconnect,
      // ahead of any later publish it sees).
      if (status.type === 'reconnect') {
        options.reset();
        await nc.flush().catch(() => undefined);
        live = !nc.isClosed();
        options.reset();
      } else if (
        status.type === 'disconnect' ||
        status.type === 'reconnecting' ||
        status.type === 'staleConnection'
      ) {
        live = false;
        options.reset();
      } else if (status.type === 'error') {
        // An asynchronous error (a slow consumer's dropped messages among them): what was
        // remembered may have missed an event; the subscription goes on.
        options.reset();
      }
    }
  };

  void connectNats(options.nats, { logger: options.logger, signal: stopping.signal }).then(
    async (nc) => {
      connection = nc;
      if (stopping.signal.aborted) return void nc.close().catch(() => undefined);
      subscribe(nc);
      void watch(nc);
      void nc.closed().then(() => {
        live = false;
        options.reset();
      });
      // Subscribed once the server answered the flush: later publishes reach us.
      await nc.flush();
      options.reset();
      live = !nc.isClosed();
    },
    () => undefined,
  );

  return {
    isLive: () => live && connection !== undefined && !connection.isClosed(),
    async stop() {
      stopping.abort();
      live = false;
      for (const subscription of subscriptions) subscription.unsubscribe();
      await connection?.close().catch(() => undefined);
    },
  };
}
