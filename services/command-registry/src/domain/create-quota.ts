import { MAX_DAILY_CREATES } from './limits';

/** The length of the daily create quota's window: a UTC day (Discord's 200 creates a day). */
export const DAILY_CREATES_WINDOW_SECONDS = 86_400;

/** Where a scope stands in its create quota window (ACS-only: the X-Command-Creates-* headers). */
export interface CreateQuota {
  /** New commands the scope may still create in this window. */
  remaining: number;
  /** Milliseconds until the window ends and `remaining` is MAX_DAILY_CREATES again. */
  resetAfterMs: number;
}

/** The quota left once `used` creates are counted in the window. */
export function remainingCreates(used: number): number {
  return Math.max(0, MAX_DAILY_CREATES - used);
}
