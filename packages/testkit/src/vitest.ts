/**
 * The Vitest helper: `beforeEach((context) => transcriptOnFailure(context, () => world))`
 * registers vitest's `onTestFailed` on each test's context, so a failing test's report ends
 * with the world's transcript: every interaction, answer, message and REST call of the
 * app. It takes the context rather than importing vitest, which a CommonJS module may not
 * (vitest refuses `require`). (For Jest, see `acs-testkit/jest`.)
 */
import type { World } from './world/world';

/** The heading the transcript is printed under. */
const HEADING = 'What happened in the world (acs-testkit transcript):';

/** What the helper needs of a vitest test context (`beforeEach`'s or a test's first argument). */
export interface VitestContext {
  onTestFailed(
    handler: (context: { task: { name: string; result?: { errors?: { message: string }[] } } }) => unknown,
  ): void;
}

/**
 * When the test of `context` fails, appends `world.transcript()` to its first error (the
 * report prints it with the failure) and prints it on stderr. `world` may be a function,
 * for a world built in `beforeAll`/`beforeEach`.
 */
export function transcriptOnFailure(context: VitestContext, world: World | (() => World | undefined)): void {
  context.onTestFailed(async ({ task }) => {
    const current = typeof world === 'function' ? world() : world;
    if (!current) return;
    // The app's latest REST calls too; a log that cannot be read leaves the rest told.
    await current.requests().catch(() => undefined);
    const text = `${HEADING}\n${current.transcript().replace(/^/gm, '  ')}`;
    const first = task.result?.errors?.[0];
    if (first) first.message = `${first.message}\n\n${text}`;
    process.stderr.write(`\n${task.name}: ${text}\n`);
  });
}
