import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  type ConsumerMessages,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { ensureEventStream, subjectWithoutPrefix, type EventStreamConfig } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import type { Directory } from '../clients/directory';
import { readEnvelope, type IncomingEvent } from '../domain/plan-event';
import type { DispatchBus } from '../gateway/dispatch-bus';
import type { DeliveryStore, NewDelivery } from '../store/delivery-store';
import { planDeliveries, type PlannedDeliveries } from './plan-deliveries';

/** Options of the event consumer. */
export interface EventConsumerOptions {
  nats: NatsConnection;
  events: EventStreamConfig;
  /** Durable consumer name, shared by every replica. */
  consumerName: string;
  store: DeliveryStore;
  directory: Directory;
  bus: DispatchBus;
  logger: Logger;
  /** Called after webhook deliveries were recorded. */
  onDeliveriesRecorded: () => void;
  /** How long JetStream waits for an ack before redelivering (applied when the consumer is created or updated). */
  ackWaitMs: number;
  /** Messages handled per batch. */
  batchSize?: number;
}
/** Delay before an event that could not be handled (a service down) comes back. */
const RETRY_DELAY_MS = 1_000;

/**
 * Consumes the event stream with one durable pull consumer shared by the replicas, in
 * batches: drops events already handled (JetStream may redeliver acknowledged ones),
 * sends gateway dispatches, records the handled ids with the webhook deliveries in one
 * transaction, and only then acknowledges. A crash anywhere before the ack means
 * redelivery: at least once, and duplicates carry the same event id.
 */
export class EventConsumer {
  private running = false;
  private messages: ConsumerMessages | undefined;
  private readonly queue: JsMsg[] = [];
  private signal: (() => void) | undefined;
  private loops: Promise<void>[] = [];

  constructor(private readonly options: EventConsumerOptions) {}

  /** Creates the stream and durable consumer when missing, then consumes in the background. */
  async start(): Promise<void> {
    const { nats, events, consumerName } = this.options;
    await ensureEventStream(nats, events);
    const jsm = await nats.jetstreamManager();
    const config = {
      durable_name: consumerName,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${events.subjectPrefix}.>`,
      ack_wait: nanos(this.options.ackWaitMs),
      max_ack_pending: 5000,
    };
    try {
      const existing = await jsm.consumers.info(events.stream, consumerName);
      if (existing.config.ack_wait !== config.ack_wait) {
        await jsm.consumers.update(events.stream, consumerName, { ack_wait: config.ack_wait });
      }
    } catch {
      await jsm.consumers.add(events.stream, config).catch(async (error: unknown) => {
        // Another replica created it meanwhile.
        await jsm.consumers.info(events.stream, consumerName).catch(() => {
          throw error;
        });
      });
    }
    this.running = true;
    this.loops = [this.pull(), this.process()];
  }

  /** Stops pulling, finishes the batch in hand; unacknowledged messages come back later. */
  async stop(): Promise<void> {
    this.running = false;
    await this.messages?.close().catch(() => undefined);
    this.signal?.();
    await Promise.all(this.loops);
  }

  private async pull(): Promise<void> {
    const { nats, events, consumerName, logger } = this.options;
    while (this.running) {
      try {
        const consumer = await nats.jetstream().consumers.get(events.stream, consumerName);
        this.messages = await consumer.consume({ max_messages: 1000 });
        for await (const message of this.messages) {
          this.queue.push(message);
          this.signal?.();
        }
      } catch (error) {
        if (!this.running) break;
        logger.warn({ err: error }, 'event consumer interrupted; resuming');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  private async process(): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    while (this.running || this.queue.length > 0) {
      if (this.queue.length === 0) {
        if (!this.running) break;
        await new Promise<void>((resolve) => (this.signal = resolve));
        this.signal = undefined;
        continue;
      }
      const batch = this.queue.splice(0, batchSize);
      try {
        await this.handleBatch(batch);
      } catch (error) {
        this.options.logger.warn(
          { err: error, count: batch.length },
          'event batch failed; it will be redelivered',
        );
        for (const message of batch) message.nak(RETRY_DELAY_MS);
      }
    }
  }

  private async handleBatch(batch: JsMsg[]): Promise<void> {
    const { store, directory, bus, logger, events } = this.options;
    const parsed: Array<{ message: JsMsg; event: IncomingEvent }> = [];
    for (const message of batch) {
      const event = parseMessage(message, events.subjectPrefix);
      if (event) parsed.push({ message, event });
      else {
        logger.warn({ subject: message.subject }, 'not an event envelope; dropped');
        message.term();
      }
    }
    const seen = await store.seen(parsed.map((p) => p.event.id));
    const fresh: typeof parsed = [];
    const duplicates: JsMsg[] = [];
    for (const item of parsed) {
      if (seen.has(item.event.id)) duplicates.push(item.message);
      else {
        seen.add(item.event.id);
        fresh.push(item);
      }
    }
    // Planned concurrently (lookups), sent in stream order.
    const plans = await Promise.all(
      fresh.map(({ event }) => planDeliveries(event, directory).catch((error: unknown) => error as Error)),
    );
    const handled: Array<{ message: JsMsg; event: IncomingEvent }> = [];
    const deliveries: NewDelivery[] = [];
    fresh.forEach((item, i) => {
      const plan = plans[i] as PlannedDeliveries | Error;
      if (plan instanceof Error) {
        logger.warn({ err: plan, eventId: item.event.id }, 'event could not be planned; retrying');
        item.message.nak(RETRY_DELAY_MS);
        return;
      }
      if (plan.gateway) bus.publish(plan.gateway.applicationId, plan.gateway.message);
      if (plan.webhook) deliveries.push(plan.webhook);
      handled.push(item);
    });
    if (handled.length > 0) await bus.flush();
    await store.record(
      handled.map(({ event, message }) => ({ id: event.id, subject: message.subject })),
      deliveries,
    );
    for (const { message } of handled) message.ack();
    for (const message of duplicates) message.ack();
    if (duplicates.length > 0) logger.debug({ count: duplicates.length }, 'duplicate events dropped');
    if (deliveries.length > 0) this.options.onDeliveriesRecorded();
  }
}

function parseMessage(message: JsMsg, subjectPrefix: string): IncomingEvent | undefined {
  try {
    return readEnvelope(subjectWithoutPrefix(message.subject, subjectPrefix), message.json());
  } catch {
    return undefined;
  }
}
