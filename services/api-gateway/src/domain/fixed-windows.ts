/** One window of a counter: when it started (ms) and how many hits it holds. */
export interface FixedWindow {
  started: number;
  count: number;
}

/** How often windows that ended are dropped, at most. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Counters in fixed windows, by key: the arithmetic of the rate limits and of the
 * invalid-request limit. A key's window opens with its first hit and lasts `lengthMs`;
 * the next hit after that opens a new one. No clock of its own: every call is given the
 * time (ms), so the rules can be tested with any clock.
 */
export class FixedWindows {
  private readonly windows = new Map<string, FixedWindow>();
  private sweptAt = 0;

  /** How many keys have a window now (ended ones included until the next sweep). */
  get size(): number {
    return this.windows.size;
  }

  /** The key's window if it has not ended at `now`, else undefined. */
  current(key: string, now: number, lengthMs: number): FixedWindow | undefined {
    const window = this.windows.get(key);
    return window !== undefined && now - window.started < lengthMs ? window : undefined;
  }

  /** Whether the key's window holds `limit` hits or more at `now`; never when `limit` is 0 (no limit). */
  isFull(key: string, now: number, lengthMs: number, limit: number): boolean {
    const window = this.current(key, now, lengthMs);
    return limit > 0 && window !== undefined && window.count >= limit;
  }

  /** Counts one hit in the key's window, opening a new window when the last one ended. */
  hit(key: string, now: number, lengthMs: number): FixedWindow {
    let window = this.current(key, now, lengthMs);
    if (!window) {
      window = { started: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  /**
   * Drops the windows that started `horizonMs` or more before `now` (a horizon no shorter
   * than any window's length, so only ended windows go), at most once a minute, so that
   * memory follows the keys in use.
   */
  sweep(now: number, horizonMs: number): void {
    if (now - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.sweptAt = now;
    for (const [key, window] of this.windows) {
      if (now - window.started >= horizonMs) this.windows.delete(key);
    }
  }
}
