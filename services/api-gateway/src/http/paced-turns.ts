/**
 * Turns per key (a client address): one at a time, and no faster than `bytesPerSecond` of
 * what the turns carried. api-gateway reads each client's large bodies in such turns: a
 * client sending many at once has the rest wait unread (TCP pushes back on it), and a
 * client sending them without end gets `bytesPerSecond` of the gateway's time, not all
 * of it, while every other client's requests go on as before.
 */
export class PacedTurns {
  /** Per key: who waits for a turn, whether one is held, and when the next may start (ms). */
  private readonly keys = new Map<string, { waiting: (() => void)[]; held: boolean; nextAt: number }>();

  constructor(
    private readonly bytesPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves when `key`'s turn comes, with the function that ends it, told how many bytes it carried. */
  take(key: string): Promise<(bytes: number) => void> {
    return new Promise((resolve) => {
      const state = this.keys.get(key) ?? { waiting: [], held: false, nextAt: 0 };
      this.keys.set(key, state);
      let ended = false;
      state.waiting.push(() =>
        resolve((bytes) => {
          if (ended) return;
          ended = true;
          state.held = false;
          state.nextAt = Math.max(state.nextAt, this.now()) + (bytes * 1000) / this.bytesPerSecond;
          this.startNext(key);
        }),
      );
      this.startNext(key);
    });
  }

  /** Keys with a turn held, waiting or still paced (for tests). */
  get size(): number {
    return this.keys.size;
  }

  private startNext(key: string): void {
    const state = this.keys.get(key);
    if (!state || state.held) return;
    const delay = state.nextAt - this.now();
    if (delay > 0) {
      setTimeout(() => this.startNext(key), delay).unref();
      return;
    }
    const next = state.waiting.shift();
    if (next) {
      state.held = true;
      next();
    } else this.keys.delete(key);
  }
}
