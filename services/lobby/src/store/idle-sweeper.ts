import type { Logger } from '@acs/service-kit';
import type { LobbyStore } from './lobby-store';

/**
 * Removes idle lobbies (and messages past 72 hours) every `intervalMs`; a full batch is
 * followed at once by the next. Replicas may all sweep: each lobby is taken by one of them
 * (SKIP LOCKED).
 */
export class IdleSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly lobbies: LobbyStore,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly batch = 500,
  ) {}

  start(): void {
    this.schedule(this.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.lobbies.sweep(this.batch).then(
        (removed) => this.schedule(removed >= this.batch ? 0 : this.intervalMs),
        (error: unknown) => {
          this.logger.warn({ err: error }, 'idle lobby sweep failed');
          this.schedule(this.intervalMs);
        },
      );
    }, delayMs);
    this.timer.unref();
  }
}
