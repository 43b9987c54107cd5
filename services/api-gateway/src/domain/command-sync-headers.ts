/** Where a scope stands in its daily create quota (ACS-only: the X-Command-Creates-* headers). */
export interface CreateQuota {
  remaining: number;
  resetAfterMs: number;
}

/** ACS-only: creates left in the scope's quota window (of 200 a day, Discord's 30034). */
export const CREATES_REMAINING_HEADER = 'X-Command-Creates-Remaining';
/** ACS-only: seconds (with milliseconds) until the scope's quota window resets. */
export const CREATES_RESET_AFTER_HEADER = 'X-Command-Creates-Reset-After';
/** ACS-only: on a bulk overwrite (or its dry run), `unchanged` when the body equals what is stored. */
export const COMMAND_SYNC_HEADER = 'X-Command-Sync';

/** The quota headers of a command route's answer; none when the quota is unknown. */
export function createQuotaHeaders(quota: CreateQuota | undefined): Record<string, string> {
  if (!quota) return {};
  return {
    [CREATES_REMAINING_HEADER]: String(quota.remaining),
    // As X-RateLimit-Reset-After: seconds, with millisecond precision.
    [CREATES_RESET_AFTER_HEADER]: (Math.max(0, quota.resetAfterMs) / 1000).toFixed(3),
  };
}

/** The X-Command-Sync header of a bulk overwrite. */
export function commandSyncHeaders(changed: boolean): Record<string, string> {
  return { [COMMAND_SYNC_HEADER]: changed ? 'changed' : 'unchanged' };
}
