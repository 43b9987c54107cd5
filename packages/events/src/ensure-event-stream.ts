import type { NatsConnection } from 'nats';
import { DEFAULT_EVENT_STREAM, type EventStreamConfig } from './event-stream';

/** JetStream's duplicate window for `Nats-Msg-Id` (the NATS default, stated explicitly). */
const DUPLICATE_WINDOW_NS = 120_000_000_000;

/** Makes sure the event stream exists, capturing `<prefix>.>` (idempotent; safe under races). */
export async function ensureEventStream(
  nats: NatsConnection,
  events: EventStreamConfig = DEFAULT_EVENT_STREAM,
): Promise<void> {
  const jsm = await nats.jetstreamManager();
  try {
    await jsm.streams.info(events.stream);
  } catch {
    try {
      await jsm.streams.add({
        name: events.stream,
        subjects: [`${events.subjectPrefix}.>`],
        duplicate_window: DUPLICATE_WINDOW_NS,
      });
    } catch (error) {
      // Another service created it between our info and add.
      await jsm.streams.info(events.stream).catch(() => {
        throw error;
      });
    }
  }
}
