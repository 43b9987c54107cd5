import type { Pool, PoolClient } from 'pg';
import type { Logger } from '@acs/service-kit';
import { OUTCOME_CHANNEL } from '../store/write-events';

/** How long after losing its connection the listener connects again. */
const RECONNECT_DELAY_MS = 1000;

/**
 * Hears, on one connection of its own, the notifications of `interactions_outcome` (an
 * interaction was acknowledged or failed, announced at commit by whichever replica did
 * it) and passes each id to its subscribers. A lost connection is made again; what was
 * announced meanwhile is lost, which is why those who wait also read the state now and then.
 */
export class OutcomeListener {
  private client: PoolClient | undefined;
  private readonly subscribers = new Set<(interactionId: string) => void>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private stopped = false;
  private reconnect: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
  ) {}

  /** Connects and LISTENs; resolves once notifications are heard. */
  async start(): Promise<void> {
    const client = await this.pool.connect();
    client.on('notification', (notification) => {
      if (notification.channel === OUTCOME_CHANNEL && notification.payload) this.heard(notification.payload);
    });
    // Before anything can fail: an 'error' with no listener would end the process. Until the
    // client is this.client, lost() leaves it to the code below.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.query(`LISTEN ${OUTCOME_CHANNEL}`);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    if (this.stopped) {
      client.release(true);
      return;
    }
    this.client = client;
  }

  /** Calls `handler` with the id of every interaction that gets its outcome; answers how to stop. */
  subscribe(handler: (interactionId: string) => void): () => void {
    this.subscribers.add(handler);
    return () => this.subscribers.delete(handler);
  }

  /**
   * Resolves when the outcome of `interactionId` is announced or after `timeoutMs`,
   * whichever comes first. Registered at once: call it before reading the state, so that
   * an announcement between the read and the wait is not missed.
   */
  next(interactionId: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiters.get(interactionId) ?? new Set();
      this.waiters.set(interactionId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(interactionId) === waiters)
          this.waiters.delete(interactionId);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      waiters.add(done);
    });
  }

  /** Stops listening; pending waits end at their timeout. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // Destroyed rather than returned: it carries this listener's handlers.
    client.release(true);
  }

  private heard(interactionId: string): void {
    for (const done of [...(this.waiters.get(interactionId) ?? [])]) done();
    for (const subscriber of this.subscribers) subscriber(interactionId);
  }

  private lost(client: PoolClient, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.release(error ?? true);
    this.logger.warn({ err: error }, 'lost the outcome notifications connection; connecting again');
    this.connectAgain();
  }

  private connectAgain(): void {
    if (this.stopped) return;
    this.reconnect = setTimeout(() => {
      this.start().catch((failure: unknown) => {
        this.logger.warn({ err: failure }, 'connecting for outcome notifications failed');
        this.connectAgain();
      });
    }, RECONNECT_DELAY_MS);
    this.reconnect.unref();
  }
}
