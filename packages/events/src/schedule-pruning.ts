/** What pruning logs through; pino's logger fits. */
export interface PruningLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** Pruning running in the background. */
export interface ScheduledPruning {
  /** Cancels the next run and ends the one in progress after its current batch. */
  stop(): Promise<void>;
}

/** How often old rows are pruned, by default. */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** The first run waits this long (or one interval if shorter), out of the way of start-up. */
const FIRST_RUN_DELAY_MS = 30_000;

/**
 * Runs `prune` once shortly after start, then every `intervalMs` after the previous run
 * ended, so that runs never overlap. A failed run is logged and retried at the next
 * interval. The timers are unref'd: pending pruning never keeps a process alive.
 */
export function schedulePruning(options: {
  /** Deletes what is too old; returns how many rows went. Stops early when `signal` aborts. */
  prune: (signal: AbortSignal) => Promise<number>;
  logger: PruningLogger;
  /** What is pruned, for the logs: `outbox rows`. */
  what: string;
  intervalMs?: number;
}): ScheduledPruning {
  const intervalMs = options.intervalMs ?? PRUNE_INTERVAL_MS;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delayMs: number): void => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(run, delayMs);
    timer.unref();
  };
  const run = (): void => {
    running = options
      .prune(stopping.signal)
      .then(
        (deleted) => {
          if (deleted > 0) options.logger.info({ deleted }, `pruned old ${options.what}`);
        },
        (error: unknown) => {
          options.logger.warn({ err: error, retryInMs: intervalMs }, `pruning ${options.what} failed`);
        },
      )
      .finally(() => {
        running = undefined;
        schedule(intervalMs);
      });
  };

  schedule(Math.min(FIRST_RUN_DELAY_MS, intervalMs));
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
