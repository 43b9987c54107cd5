import type { Logger } from 'pino';

/** One step of an ordered shutdown. */
export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

/**
 * Runs the steps in order on SIGTERM or SIGINT (stop accepting work first, then drain,
 * then close connections), each at most once; exits when done or when the timeout
 * passes. Returns the function so tests and launchers can trigger it directly.
 */
export function installGracefulShutdown(
  logger: Logger,
  steps: ShutdownStep[],
  timeoutMs: number,
): () => Promise<void> {
  let started: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    started ??= (async () => {
      logger.info('shutting down');
      const timer = setTimeout(() => {
        logger.error({ timeoutMs }, 'shutdown timed out');
        process.exit(1);
      }, timeoutMs);
      timer.unref();
      for (const step of steps) {
        try {
          await step.run();
          logger.debug({ step: step.name }, 'shutdown step done');
        } catch (error) {
          logger.error({ err: error, step: step.name }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
      logger.info('stopped');
    })();
    return started;
  };
  const onSignal = (): void => {
    void shutdown().then(() => process.exit(0));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return shutdown;
}
