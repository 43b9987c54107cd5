import type { Logger } from '@acs/service-kit';
import { WakeSignal } from '@acs/events';
import { signatureTimestamp, signWebhook, type WebhookPoster } from '@acs/outbound';
import type { ApplicationSettings, OAuthClient } from '../../clients/oauth-client';
import { deliveryUrlOf } from '../../domain/plan-lobby-event';
import { countDeliveries } from '../delivery-metrics';
import { nextAttemptAt } from '../../domain/retry-schedule';
import type { ClaimedDelivery, DeliveryStore } from '../../store/delivery-store';

/** Options of the webhook worker. */
export interface WebhookWorkerOptions {
  store: DeliveryStore;
  oauth: OAuthClient;
  poster: WebhookPoster;
  logger: Logger;
  concurrency: number;
  concurrencyPerEndpoint: number;
  timeScale: number;
  disableAfterFailures: number;
  /** How long claimed deliveries stay this replica's (default 60 s). */
  leaseMs?: number;
  /** Longest sleep when nothing is due (deliveries recorded by other replicas). */
  pollIntervalMs?: number;
  random?: () => number;
}

/**
 * Deliveries leased ahead per endpoint slot: the queue keeps an endpoint busy without a
 * claim per delivery, and stays short enough that the lease covers its wait.
 */
const CLAIM_AHEAD = 8;
/**
 * Default lease: outlives the wait in an endpoint's queue (CLAIM_AHEAD attempts of at
 * most 3 s) plus an attempt. It is also how long the deliveries a crashed replica had
 * leased wait before another replica takes them.
 */
const DEFAULT_LEASE_MS = 60_000;

/**
 * Delivers recorded webhook events: leases due deliveries into per-application queues, at
 * most `concurrencyPerEndpoint` in flight per application (so one slow endpoint only ever
 * slows itself), signs each attempt with a fresh timestamp, and records the outcome:
 * delivered on 204; otherwise retried with backoff until the budget is spent.
 */
export class WebhookWorker {
  /** Per application: deliveries leased by this replica (queued or in flight), and those in flight. */
  private readonly held = new Map<string, { queue: ClaimedDelivery[]; inFlight: number }>();
  private total = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly wakeUp = new WakeSignal();
  private readonly random: () => number;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.random = options.random ?? Math.random;
  }

  /** Starts claiming in the background. */
  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Claims at once (new deliveries were recorded, or a slot came free). */
  wake(): void {
    this.wakeUp.wake();
  }

  /** Stops claiming and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    while (this.total > 0) await new Promise((r) => setTimeout(r, 20));
  }

  private async run(): Promise<void> {
    const poll = this.options.pollIntervalMs ?? 1000;
    while (this.running) {
      // A wake-up from here on (a slot freed, deliveries recorded) means claim again.
      this.wakeUp.clear();
      try {
        const free = this.options.concurrency * CLAIM_AHEAD - this.total;
        const perApplication = this.options.concurrencyPerEndpoint * CLAIM_AHEAD;
        if (free > 0) {
          const claimed = await this.options.store.claimDue({
            limit: free,
            perApplication,
            busy: this.busyApplications(perApplication),
            leaseMs: this.options.leaseMs ?? DEFAULT_LEASE_MS,
          });
          for (const delivery of claimed) this.enqueue(delivery);
          if (claimed.length === free) continue;
        }
        if (this.wakeUp.woken) continue;
        const due =
          free > 0 ? await this.options.store.nextDueAt(this.busyApplications(perApplication)) : undefined;
        const wait = due ? Math.max(0, Math.min(poll, due.getTime() - Date.now())) : poll;
        await this.wakeUp.wait(wait);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'webhook worker could not claim deliveries; retrying');
        await this.wakeUp.wait(poll);
      }
    }
  }

  /** Applications holding as many deliveries as they may: nothing more is claimed for them. */
  private busyApplications(perApplication: number): string[] {
    return [...this.held].filter(([, h]) => h.queue.length + h.inFlight >= perApplication).map(([id]) => id);
  }

  /** Holds a leased delivery in its application's queue and starts what the endpoint's limit allows. */
  private enqueue(delivery: ClaimedDelivery): void {
    const app = delivery.applicationId;
    let held = this.held.get(app);
    if (!held) {
      held = { queue: [], inFlight: 0 };
      this.held.set(app, held);
    }
    held.queue.push(delivery);
    this.total += 1;
    this.pump(app, held);
  }

  private pump(app: string, held: { queue: ClaimedDelivery[]; inFlight: number }): void {
    while (held.inFlight < this.options.concurrencyPerEndpoint && held.queue.length > 0) {
      const delivery = held.queue.shift() as ClaimedDelivery;
      held.inFlight += 1;
      void this.attempt(delivery)
        .catch((error: unknown) =>
          this.options.logger.error(
            { err: error, eventId: delivery.eventId },
            'webhook attempt could not be recorded',
          ),
        )
        .finally(() => {
          held.inFlight -= 1;
          this.total -= 1;
          if (held.inFlight === 0 && held.queue.length === 0 && this.held.get(app) === held)
            this.held.delete(app);
          else this.pump(app, held);
          this.wake();
        });
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { store, oauth, poster, logger } = this.options;
    let settings = await oauth.settings(delivery.applicationId);
    if (!receives(delivery, settings)) {
      // Before skipping, oauth's answer of now: the cached one may predate a change made
      // through another replica (which the replica that recorded the delivery saw).
      settings = await oauth.settings(delivery.applicationId, { notBefore: new Date() });
    }
    const url = deliveryUrlOf(delivery, settings.webhookUrl);
    if (!url || !receives(delivery, settings)) {
      await store.markSkipped(delivery, 'the application no longer receives this event');
      countDeliveries({ channel: 'webhook', outcome: 'skipped' });
      return;
    }
    const attemptedAt = new Date();
    const timestamp = signatureTimestamp(attemptedAt.getTime());
    const outcome = await poster.post(url, delivery.body, {
      'x-signature-ed25519': signWebhook(settings.signingKeyPem, timestamp, delivery.body),
      'x-signature-timestamp': timestamp,
      'x-event-id': delivery.eventId,
    });
    if (outcome.kind === 'answered' && outcome.status === 204) {
      await store.markDelivered(delivery, attemptedAt);
      countDeliveries({ channel: 'webhook', outcome: 'delivered' });
      return;
    }
    const error = outcome.kind === 'answered' ? `answered ${outcome.status}, not 204` : outcome.reason;
    const first = delivery.firstAttemptAt?.getTime() ?? attemptedAt.getTime();
    const next = nextAttemptAt(delivery.attempts + 1, first, Date.now(), this.random, this.options.timeScale);
    if (next !== undefined) {
      await store.scheduleRetry(delivery, attemptedAt, new Date(next), error);
      countDeliveries({ channel: 'webhook', outcome: 'retry' });
      return;
    }
    const disabled = await store.markFailed(delivery, attemptedAt, error, this.options.disableAfterFailures);
    countDeliveries({ channel: 'webhook', outcome: 'failed' });
    logger.warn(
      { eventId: delivery.eventId, applicationId: delivery.applicationId, error },
      'webhook delivery failed',
    );
    if (disabled) {
      logger.warn(
        { applicationId: delivery.applicationId },
        'event webhooks disabled after repeated failures',
      );
      // The application object shows it (event_webhooks_status 3). Deliveries already stopped,
      // whatever this call's fate: the dispatcher's own record is what decides.
      await oauth.disableEventWebhooks(delivery.applicationId).catch((error: unknown) => {
        logger.error(
          { err: error, applicationId: delivery.applicationId },
          'could not mark the webhooks disabled in oauth',
        );
      });
    }
  }
}

/** Whether the application's settings still take the delivery (a URL, the event type). */
function receives(delivery: ClaimedDelivery, settings: ApplicationSettings): boolean {
  return !!deliveryUrlOf(delivery, settings.webhookUrl) && settings.webhookTypes.includes(delivery.eventType);
}
