import type { NatsConnection, Subscription } from 'nats';

/** What reaches an application's sessions, wherever they live. */
export type BusMessage =
  { kind: 'dispatch'; t: string; d: unknown; guildId?: string } | { kind: 'invalidate' };

/**
 * Carries dispatches from the replica that consumed an event to the replicas holding the
 * application's sessions: core NATS subject `<prefix>_gateway.<application_id>` (outside
 * the event stream's `<prefix>.>`), subscribed by a replica while it holds a session of
 * that application. Dispatches to a session are not durable (Discord's are not either):
 * a session that misses one because its replica died cannot resume, and identifies anew.
 */
export class DispatchBus {
  private readonly subscriptions = new Map<
    string,
    { sub: Subscription; handlers: Set<(m: BusMessage) => void> }
  >();

  constructor(
    private readonly nats: NatsConnection,
    private readonly subjectPrefix: string,
  ) {}

  private subject(applicationId: string): string {
    return `${this.subjectPrefix}_gateway.${applicationId}`;
  }

  /** Sends a message to every session of the application. */
  publish(applicationId: string, message: BusMessage): void {
    this.nats.publish(this.subject(applicationId), JSON.stringify(message));
  }

  /** Resolves once everything published so far has reached the server. */
  flush(): Promise<void> {
    return this.nats.flush();
  }

  /** Receives the application's messages until the returned function is called. */
  subscribe(applicationId: string, handler: (message: BusMessage) => void): () => void {
    let entry = this.subscriptions.get(applicationId);
    if (!entry) {
      const handlers = new Set<(m: BusMessage) => void>();
      const sub = this.nats.subscribe(this.subject(applicationId), {
        callback: (error, msg) => {
          if (error) return;
          const message = JSON.parse(msg.string()) as BusMessage;
          for (const h of handlers) h(message);
        },
      });
      entry = { sub, handlers };
      this.subscriptions.set(applicationId, entry);
    }
    const current = entry;
    current.handlers.add(handler);
    return () => {
      current.handlers.delete(handler);
      if (current.handlers.size === 0 && this.subscriptions.get(applicationId) === current) {
        current.sub.unsubscribe();
        this.subscriptions.delete(applicationId);
      }
    };
  }
}
