import type { Logger } from '@acs/service-kit';
import { NO_BOT_SESSION_FAILURE, TIMEOUT_FAILURE, type Failure } from '../domain/timeline';
import type { FailedInteraction, FailResult } from '../store/interaction-store';

/** What the deadline needs of the store. */
export interface DeadlineStore {
  failIfPending(id: string, failure: Failure, onlyIfOverdue: boolean): Promise<FailResult>;
  failOverdue(limit: number): Promise<FailedInteraction[]>;
}

/** Options of the DeadlineKeeper. */
export interface DeadlineKeeperOptions {
  deadlineMs: number;
  sweepIntervalMs: number;
  logger: Logger;
  /**
   * Whether the application's bot has a gateway session on any dispatcher replica
   * (`@acs/events`' `hasBotSession`); undefined: could not tell. Absent: never asked.
   */
  hasBotSession?: (applicationId: string) => Promise<boolean | undefined>;
}

/** What an interaction's deadline knows of its delivery. */
export interface WatchOptions {
  /** When its deadline is (default: the response deadline from now). */
  delayMs?: number;
  /** It went to this application's bot over the gateway: at its deadline, is a session connected? */
  gatewayApplicationId?: string;
}

/** Interactions failed per sweep transaction. */
const SWEEP_BATCH = 500;

/**
 * Fails interactions that get no initial response within the deadline (A6: 3 s), with
 * reason 2 TIMEOUT: a timer per interaction this replica recorded, at its deadline by the
 * database's clock (a timer that fires early waits what is left), and a periodic sweep of
 * overdue pending rows, which catches the interactions whose timer a restart or a crash
 * of another replica lost. Both fail through the store's one conditional UPDATE, so a
 * racing callback either wins or finds the interaction failed. A gateway app's interaction
 * failed by its timer says so when no bot session was connected to receive it (the sweep,
 * which does not know how each was delivered, gives the plain timeout).
 */
export class DeadlineKeeper {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; gatewayApplicationId?: string }>();
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly store: DeadlineStore,
    private readonly options: DeadlineKeeperOptions,
  ) {}

  /** Starts the periodic sweep. */
  start(): void {
    this.sweeper = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    }, this.options.sweepIntervalMs);
    this.sweeper.unref();
  }

  /** Arms the deadline of an interaction just recorded. */
  watch(interactionId: string, options: WatchOptions = {}): void {
    this.forget(interactionId);
    const { delayMs = this.options.deadlineMs, gatewayApplicationId } = options;
    const timer = setTimeout(() => void this.expire(interactionId, gatewayApplicationId), delayMs);
    timer.unref();
    this.timers.set(interactionId, { timer, gatewayApplicationId });
  }

  /** The interaction has its outcome: its timer has nothing left to do. */
  forget(interactionId: string): void {
    const watched = this.timers.get(interactionId);
    if (watched === undefined) return;
    clearTimeout(watched.timer);
    this.timers.delete(interactionId);
  }

  /** Stops the timers and the sweep; the interactions they watched are the next sweep's, anywhere. */
  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.sweeping;
  }

  /** How many deadlines this replica watches. */
  get watched(): number {
    return this.timers.size;
  }

  private async expire(interactionId: string, gatewayApplicationId: string | undefined): Promise<void> {
    this.timers.delete(interactionId);
    try {
      const failure = await this.timeoutFailureOf(gatewayApplicationId);
      const result = await this.store.failIfPending(interactionId, failure, true);
      if (result.kind === 'failed') this.logFailed({ id: interactionId, reason: result.reason });
      // This clock ran ahead of the database's: wait for what is left.
      if (result.kind === 'pending') {
        this.watch(interactionId, { delayMs: result.remainingMs + 1, gatewayApplicationId });
      }
    } catch (error) {
      this.options.logger.warn(
        { err: error, interaction_id: interactionId },
        'failing an overdue interaction failed',
      );
    }
  }

  /** The timeout, or, for a gateway app whose bot had no session to receive the interaction, that. */
  private async timeoutFailureOf(gatewayApplicationId: string | undefined): Promise<Failure> {
    const { hasBotSession } = this.options;
    if (gatewayApplicationId === undefined || !hasBotSession) return TIMEOUT_FAILURE;
    const connected = await hasBotSession(gatewayApplicationId).catch(() => undefined);
    return connected === false ? NO_BOT_SESSION_FAILURE : TIMEOUT_FAILURE;
  }

  private async sweep(): Promise<void> {
    try {
      for (;;) {
        const failed = await this.store.failOverdue(SWEEP_BATCH);
        for (const interaction of failed) this.logFailed(interaction);
        if (failed.length < SWEEP_BATCH) break;
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'the deadline sweep failed');
    }
  }

  /** Why an interaction failed, in the words the timeline and the user get. */
  private logFailed(interaction: { id: string; reason: string }): void {
    this.options.logger.info(
      { interaction_id: interaction.id, reason: interaction.reason },
      'interaction failed',
    );
  }
}
