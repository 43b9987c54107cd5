import {
  AckPolicy,
  connect,
  DeliverPolicy,
  nanos,
  type ConsumerMessages,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { ensureEventStream, type EventStreamConfig } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import { planPermissionCleanup } from '../domain/command-permissions/plan-permission-cleanup';

/** What the consumer deletes with (`CommandPermissionsStore.deleteForCommand`). */
export interface PermissionCleanupTarget {
  deleteForCommand(commandId: string, beforeVersion?: string): Promise<number>;
}

/** Options of the command events consumer. */
export interface CommandEventsConsumerOptions {
  natsUrl: string;
  events: EventStreamConfig;
  store: PermissionCleanupTarget;
  logger: Logger;
  /** Durable consumer name, shared by every replica (default `permissions-command-events`). */
  durableName?: string;
}

/** The durable consumer's name: one per deployment, shared by the replicas. */
export const COMMAND_EVENTS_DURABLE = 'permissions-command-events';
/** How long JetStream waits for an ack before redelivering. */
const ACK_WAIT_MS = 30_000;
/** Delay before a message whose delete failed (database down) comes back. */
const RETRY_DELAY_MS = 1_000;

/**
 * The durable backstop of "deleting or renaming a command deletes its permissions": a
 * JetStream pull consumer of `<prefix>.command-registry.command.>` that deletes the rows of
 * deleted and renamed commands and acknowledges only after the delete committed. The
 * delete is idempotent (JetStream may redeliver acknowledged messages), so no dedup table.
 * Connects in the background, retrying, so the service starts while NATS is down.
 */
export class CommandEventsConsumer {
  private stopped = false;
  private nats: NatsConnection | undefined;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: CommandEventsConsumerOptions) {}

  /** Starts connecting and consuming in the background. */
  start(): void {
    this.loop = this.run().catch((error: unknown) =>
      this.options.logger.error({ err: error }, 'command events consumer stopped'),
    );
  }

  /** Stops pulling and waits for the message in hand; unacknowledged ones come back later. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.messages?.close().catch(() => undefined);
    await this.loop;
    await this.nats?.close().catch(() => undefined);
  }

  private async run(): Promise<void> {
    const { logger } = this.options;
    for (let delay = 250; !this.stopped; delay = Math.min(delay * 2, 5000)) {
      try {
        const nats = (this.nats ??= await connect({
          servers: this.options.natsUrl,
          name: 'permissions-command-events',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 1000,
        }));
        await this.ensureConsumer(nats);
        delay = 250;
        await this.consume(nats);
      } catch (error) {
        if (this.stopped) break;
        logger.warn({ err: error, retryInMs: delay }, 'command events consumer interrupted; retrying');
        await this.pause(delay);
      }
    }
  }

  private async ensureConsumer(nats: NatsConnection): Promise<void> {
    const { events } = this.options;
    const durable = this.options.durableName ?? COMMAND_EVENTS_DURABLE;
    await ensureEventStream(nats, events);
    const jsm = await nats.jetstreamManager();
    try {
      await jsm.consumers.info(events.stream, durable);
    } catch {
      await jsm.consumers
        .add(events.stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          // created/updated arrive too and are acknowledged unread (one filter works on NATS 2.9).
          filter_subject: `${events.subjectPrefix}.command-registry.command.>`,
          ack_wait: nanos(ACK_WAIT_MS),
        })
        .catch(async (error: unknown) => {
          // Another replica created it meanwhile.
          await jsm.consumers.info(events.stream, durable).catch(() => {
            throw error;
          });
        });
    }
  }

  private async consume(nats: NatsConnection): Promise<void> {
    const { events } = this.options;
    const consumer = await nats
      .jetstream()
      .consumers.get(events.stream, this.options.durableName ?? COMMAND_EVENTS_DURABLE);
    this.messages = await consumer.consume({ max_messages: 100 });
    if (this.stopped) await this.messages.close();
    for await (const message of this.messages) await this.handle(message);
  }

  private async handle(message: JsMsg): Promise<void> {
    const { logger, store } = this.options;
    let envelope: { id?: unknown; type?: unknown; data?: unknown };
    try {
      envelope = message.json();
    } catch {
      logger.warn({ subject: message.subject }, 'not an event envelope; dropped');
      message.term();
      return;
    }
    const cleanup = planPermissionCleanup(String(envelope.type ?? ''), envelope.data);
    if (!cleanup) {
      message.ack();
      return;
    }
    let removed: number;
    try {
      removed = await store.deleteForCommand(cleanup.commandId, cleanup.beforeVersion);
    } catch (error) {
      logger.warn({ err: error, eventId: envelope.id }, 'command permissions not deleted; redelivering');
      message.nak(RETRY_DELAY_MS);
      return;
    }
    // The delete committed (one statement): only now is the event done with.
    message.ack();
    if (removed > 0)
      logger.info({ ...cleanup, removed, eventId: envelope.id }, 'command permissions deleted');
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
