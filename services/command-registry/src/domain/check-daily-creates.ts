import { MaxDailyCreatesError } from './command-errors';

/**
 * The daily create quota: `adding` new commands must fit in what the current window has
 * `remaining` (of MAX_DAILY_CREATES, 200), else 400 / 30034. Zero new commands always fit.
 */
export function checkDailyCreates(remaining: number, adding: number): void {
  if (adding > remaining) throw new MaxDailyCreatesError();
}
