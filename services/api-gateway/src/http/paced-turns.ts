/** A turn that could not start soon enough: the caller should come back after `retryAfterMs`. */
export class TurnTooFarError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`no turn within the wait allowed; retry in ${Math.ceil(retryAfterMs)} ms`);
    this.name = 'TurnTooFarError';
  }
}

interface KeyState {
  /** Those waiting for a turn, in order. */
  waiting: (() => void)[];
  held: boolean;
  /** When the next turn may start (ms, the clock's). */
  nextAt: number;
  /** The bytes announced by the turn held and those waiting, not yet paid for. */
  pendingBytes: number;
}

/**
 * Turns per key (a client address): one at a time, and no faster than `bytesPerSecond` of
 * what the turns carried. api-gateway reads each client's large bodies in such turns: a
 * client sending many at once has the rest wait unread (TCP pushes back on it), and a
 * client sending them without end gets `bytesPerSecond` of the gateway's time, not all
 * of it, while every other client's requests go on as before. A turn that could not start
 * within `maxWaitMs` is refused at once (TurnTooFarError), so that no request waits
 * longer than its own deadlines allow.
 */
export class PacedTurns {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly bytesPerSecond: number,
    private readonly maxWaitMs = Infinity,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Resolves when `key`'s turn comes, with the function that ends it, told how many bytes
   * the turn carried; `expectedBytes` (the announced size) schedules those waiting behind.
   */
  take(key: string, expectedBytes = 0): Promise<(bytes: number) => void> {
    const state = this.keys.get(key) ?? { waiting: [], held: false, nextAt: 0, pendingBytes: 0 };
    const wait = Math.max(0, state.nextAt - this.now()) + this.durationOf(state.pendingBytes);
    if (wait > this.maxWaitMs) return Promise.reject(new TurnTooFarError(wait));
    this.keys.set(key, state);
    state.pendingBytes += expectedBytes;
    return new Promise((resolve) => {
      let ended = false;
      state.waiting.push(() =>
        resolve((bytes) => {
          if (ended) return;
          ended = true;
          state.held = false;
          state.pendingBytes = Math.max(0, state.pendingBytes - expectedBytes);
          state.nextAt = Math.max(state.nextAt, this.now()) + this.durationOf(bytes);
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

  private durationOf(bytes: number): number {
    return (bytes * 1000) / this.bytesPerSecond;
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
