import { checkDailyCreates } from './check-daily-creates';
import { EntryPointBulkRemovalError } from './command-errors';
import type { ExistingCommand, OverwritePlan } from './plan-overwrite';

/**
 * The refusals of a bulk overwrite, shared by the real PUT and its dry run, in this order:
 * removing the entry point refuses the whole request (400 / 50240; DELETE alone may), and
 * the new commands must fit in the creates left today (400 / 30034).
 */
export function checkOverwrite(plan: OverwritePlan<ExistingCommand>, createsRemaining: number): void {
  if (plan.removesEntryPoint) throw new EntryPointBulkRemovalError();
  checkDailyCreates(createsRemaining, plan.fresh.length);
}
