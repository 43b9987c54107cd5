import { hasPermissions, PERMISSION_FLAGS as P } from './permission-flags';

/**
 * What a timed-out member keeps of their permissions (D:resources/guild.mdx §Guild Member
 * Object, `communication_disabled_until`; Discord's Help Center on timeouts: a timed-out
 * member can read channels and their history, and cannot send messages, react, join voice,
 * use application commands or anything else).
 */
export const TIMEOUT_KEPT_PERMISSIONS = P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY;

/** Whether a member's timeout is running at `now`: its end is set and still ahead. */
export function isTimedOut(until: Date | null | undefined, now: Date): boolean {
  return until !== null && until !== undefined && until.getTime() > now.getTime();
}

/** The member a timeout is applied to, as the permission computation knows them. */
export interface TimeoutSubject {
  /** The member's guild-level permissions (the owner's and administrators' carry ADMINISTRATOR). */
  basePermissions: bigint;
  /** Until when the member is timed out; null or absent: not. */
  until: Date | null | undefined;
}

/**
 * A member's permissions (guild-level or in a channel) under a timeout running at `now`:
 * only VIEW_CHANNEL and READ_MESSAGE_HISTORY of what they hold. The owner and
 * administrators are never restricted; an ended or absent timeout changes nothing. `now`
 * is the caller's (the database's clock, read with the member), never read here.
 */
export function applyTimeout(permissions: bigint, subject: TimeoutSubject, now: Date): bigint {
  if (!isTimedOut(subject.until, now)) return permissions;
  if (hasPermissions(subject.basePermissions, P.ADMINISTRATOR)) return permissions;
  return permissions & TIMEOUT_KEPT_PERMISSIONS;
}
