/**
 * Test-runner helpers (Jest, and any runner whose tests are async functions: Vitest,
 * node:test, Mocha). `withTranscript(() => world, async () => {...})` runs a test and,
 * when it fails, adds the world's transcript to the failure, so the report says what the
 * bot answered.
 */
import type { World } from './world/world';

/**
 * Wraps a test function: when it throws, the error's message gets `world.transcript()`
 * appended (and the error is thrown again), so the runner's failure report shows every
 * interaction and answer of the world. `world` may be a function, for a world built in
 * `beforeAll`/`beforeEach`.
 */
export function withTranscript<Args extends unknown[]>(
  world: World | (() => World | undefined),
  test: (...args: Args) => unknown,
): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    try {
      await test(...args);
    } catch (error) {
      const current = typeof world === 'function' ? world() : world;
      // The app's latest REST calls too; a log that cannot be read leaves the rest told.
      await current?.requests().catch(() => undefined);
      if (current) appendTranscript(error, current.transcript());
      throw error;
    }
  };
}

/** Appends the transcript to an error's message, which the runner prints with the failure. */
function appendTranscript(error: unknown, transcript: string): void {
  if (!(error instanceof Error)) return;
  error.message += `\n\nWhat happened in the world (acs-testkit transcript):\n${transcript.replace(/^/gm, '  ')}`;
}
