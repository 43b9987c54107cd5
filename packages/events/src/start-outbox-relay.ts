import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { connectNats } from './connect-nats';
import { ensureEventStream } from './ensure-event-stream';
import type { EventStreamConfig } from './event-stream';
import { OutboxRelay, type RelayLogger } from './outbox-relay';
import { retry } from './retry';

/** A running relay with its own NATS connection. */
export interface RunningRelay {
  /** Whether the NATS connection is currently up (for readiness and tests). */
  isConnected(): boolean;
  stop(): Promise<void>;
}

/**
 * Connects to NATS in the background (retrying forever, so a service starts and takes
 * writes while NATS is down), makes sure the stream exists, then relays the outbox.
 * Published rows are kept as long as the stream keeps events (`events.maxAgeMs`).
 */
export function startOutboxRelay(options: {
  pool: Pool;
  schema: string;
  natsUrl: string;
  logger: RelayLogger;
  name: string;
  /** Stream, subject prefix and retention (default `ACS_EVENTS`, `acs`, forever). */
  events?: EventStreamConfig;
}): RunningRelay {
  const stopping = new AbortController();
  let nats: NatsConnection | undefined;
  let relay: OutboxRelay | undefined;
  const ready = (async () => {
    const { signal } = stopping;
    const connection = await connectNats(
      { servers: options.natsUrl, name: options.name },
      { logger: options.logger, signal },
    );
    nats = connection;
    await retry(() => ensureEventStream(connection, options.events), {
      signal,
      onRetry: (error, { delayMs }) =>
        options.logger.warn(
          { err: error, retryInMs: delayMs },
          'cannot create the event stream yet; retrying',
        ),
    });
    relay = new OutboxRelay({
      pool: options.pool,
      schema: options.schema,
      nats: connection,
      logger: options.logger,
      events: options.events,
      retentionMs: options.events?.maxAgeMs,
    });
    await relay.start();
    options.logger.info({ nats: options.natsUrl }, 'outbox relay started');
  })().catch((error: unknown) => {
    if (!stopping.signal.aborted) options.logger.error({ err: error }, 'outbox relay could not start');
  });

  return {
    isConnected: () => nats !== undefined && !nats.isClosed(),
    async stop() {
      stopping.abort();
      await ready;
      await relay?.stop();
      await nats?.drain().catch(() => undefined);
    },
  };
}
