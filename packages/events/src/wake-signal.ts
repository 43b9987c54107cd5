/**
 * A wake-up for a polling loop that is never lost. A loop clears the signal, does its
 * work (a query, a claim), then waits: a `wake()` that came while it was working makes
 * the wait return at once, instead of sleeping through a whole poll interval because
 * the wake-up reached nobody.
 */
export class WakeSignal {
  private pending = false;
  private waiter: (() => void) | undefined;

  /** Ends the current wait, or the next one if nobody waits. */
  wake(): void {
    this.pending = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Forgets earlier wake-ups: call before the work whose result the wait depends on. */
  clear(): void {
    this.pending = false;
  }

  /** Whether `wake()` was called since the last `clear()` or wait. */
  get woken(): boolean {
    return this.pending;
  }

  /** Waits `ms`, or less if woken; returns at once when a wake-up is already pending. */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.waiter === done) this.waiter = undefined;
        this.pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiter = done;
    });
  }
}
