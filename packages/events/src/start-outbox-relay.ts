import { connect, type NatsConnection } from 'nats';
import type { Pool } from 'pg';
import type { EventStreamConfig } from './event-stream';
import { OutboxRelay, type RelayLogger } from './outbox-relay';

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
  let nats: NatsConnection | undefined;
  let relay: OutboxRelay | undefined;
  let stopped = false;
  let interrupt: (() => void) | undefined;
  // A wait that stop() can cut short.
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      interrupt = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const ready = (async () => {
    // Our own retry loop rather than the client's waitOnFirstConnect, so that stop()
    // can end a relay that never reached NATS.
    for (let delay = 250; !stopped; delay = Math.min(delay * 2, 5000)) {
      try {
        nats = await connect({
          servers: options.natsUrl,
          name: options.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 1000,
        });
        break;
      } catch (error) {
        options.logger.warn({ err: error, retryInMs: delay }, 'NATS not reachable yet; retrying');
        await pause(delay);
      }
    }
    if (stopped || !nats) return;
    for (let delay = 250; !stopped; delay = Math.min(delay * 2, 5000)) {
      try {
        await OutboxRelay.ensureStream(nats as NatsConnection, options.events);
        break;
      } catch (error) {
        options.logger.warn({ err: error }, 'cannot create the event stream yet; retrying');
        await pause(delay);
      }
    }
    if (stopped) return;
    relay = new OutboxRelay({
      pool: options.pool,
      schema: options.schema,
      nats: nats as NatsConnection,
      logger: options.logger,
      events: options.events,
      retentionMs: options.events?.maxAgeMs,
    });
    await relay.start();
    options.logger.info({ nats: options.natsUrl }, 'outbox relay started');
  })().catch((error: unknown) => options.logger.error({ err: error }, 'outbox relay could not start'));

  return {
    isConnected: () => nats !== undefined && !nats.isClosed(),
    async stop() {
      stopped = true;
      interrupt?.();
      await ready;
      await relay?.stop();
      await nats?.drain().catch(() => undefined);
    },
  };
}
