import type { SettledInteraction } from '../domain/invocation';
import type { OutcomeListener } from './outcome-listener';

/** What waiting reads. */
export interface OutcomeStore {
  settled(id: string): Promise<SettledInteraction | undefined>;
}

/**
 * How often a wait reads the state even without a notification (one lost with the
 * listener's connection): the outcome is then late by this much at most.
 */
const READ_AGAIN_MS = 500;

/**
 * `wait` (ACS extension): the outcome of an interaction, once it has one. Each round
 * registers for the outcome's notification first, then reads the state, then waits for
 * the notification (or READ_AGAIN_MS): so an outcome announced at any moment is seen.
 */
export class OutcomeWaiter {
  constructor(
    private readonly listener: Pick<OutcomeListener, 'next'>,
    private readonly store: OutcomeStore,
  ) {}

  /** The settled interaction, or undefined when it has no outcome by `untilMs` (epoch ms). */
  wait(interactionId: string, untilMs: number): Promise<SettledInteraction | undefined> {
    return this.waitUntil(interactionId, untilMs, () => true);
  }

  /**
   * The settled interaction once `done` says so of it (`?wait=final`: its deferral filled;
   * follow-ups and edits are announced on the same channel), or as it last was by
   * `untilMs` (undefined when it still has no outcome).
   */
  async waitUntil(
    interactionId: string,
    untilMs: number,
    done: (settled: SettledInteraction) => boolean,
  ): Promise<SettledInteraction | undefined> {
    for (;;) {
      const left = untilMs - Date.now();
      const announced = this.listener.next(interactionId, Math.min(READ_AGAIN_MS, Math.max(0, left)));
      const settled = await this.store.settled(interactionId);
      if ((settled && done(settled)) || left <= 0) return settled;
      await announced;
    }
  }
}
