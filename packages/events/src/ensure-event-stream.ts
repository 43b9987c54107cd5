import { nanos, type JetStreamManager, type NatsConnection, type StreamInfo } from 'nats';
import { DEFAULT_EVENT_STREAM, type EventStreamConfig } from './event-stream';

/** JetStream's duplicate window for `Nats-Msg-Id` (the NATS default, stated explicitly). */
const DUPLICATE_WINDOW_NS = 120_000_000_000;

/**
 * Makes sure the event stream exists, capturing `<prefix>.>` (idempotent; safe under
 * races). With `maxAgeMs`, the stream keeps events that long, and with `replicas` on that
 * many servers: each set on creation, and updated on an existing stream whose value
 * differs, so that a changed retention or replica count takes effect at the next start of
 * any service.
 */
export async function ensureEventStream(
  nats: NatsConnection,
  events: EventStreamConfig = DEFAULT_EVENT_STREAM,
): Promise<void> {
  const jsm = await nats.jetstreamManager();
  const maxAge = events.maxAgeMs === undefined ? undefined : nanos(events.maxAgeMs);
  const stream = await jsm.streams.info(events.stream).catch(() => createStream(jsm, events, maxAge));
  const changes = {
    ...(maxAge !== undefined && stream.config.max_age !== maxAge ? { max_age: maxAge } : {}),
    ...(events.replicas !== undefined && stream.config.num_replicas !== events.replicas
      ? { num_replicas: events.replicas }
      : {}),
  };
  if (Object.keys(changes).length > 0) {
    // The update replaces the whole configuration: keep everything else as it is.
    await jsm.streams.update(events.stream, { ...stream.config, ...changes });
  }
}

async function createStream(
  jsm: JetStreamManager,
  events: EventStreamConfig,
  maxAge: number | undefined,
): Promise<StreamInfo> {
  try {
    return await jsm.streams.add({
      name: events.stream,
      subjects: [`${events.subjectPrefix}.>`],
      duplicate_window: DUPLICATE_WINDOW_NS,
      ...(maxAge === undefined ? {} : { max_age: maxAge }),
      ...(events.replicas === undefined ? {} : { num_replicas: events.replicas }),
    });
  } catch (error) {
    // Another service created it between our info and add (with its own max_age and
    // replicas, which the caller then aligns).
    return jsm.streams.info(events.stream).catch(() => {
      throw error;
    });
  }
}
