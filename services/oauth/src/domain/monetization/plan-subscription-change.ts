import { fieldError } from '@acs/discord-errors';
import { SubscriptionStatus } from './monetization-limits';
import type { SubscriptionRecord } from './monetization-records';

/** What the payment system does to a subscription (the admin API's simulation). */
export type SubscriptionChange = 'renew' | 'cancel' | 'end';

/** The subscription after a change, and whether its entitlements end with it. */
export interface PlannedChange {
  subscription: Omit<SubscriptionRecord, 'entitlementIds'>;
  /** Set when the change ends the subscription's entitlements at that time (ENTITLEMENT_UPDATE). */
  endEntitlementsAt: Date | null;
}

/** One billing period later: the same day of the next month (UTC), clamped to its last day. */
export function addOnePeriod(time: Date): Date {
  const next = new Date(time);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** 400 / 50035 at `status`: the change does not apply to a subscription in its status. */
function refuse(change: SubscriptionChange, status: number): never {
  throw fieldError(
    'status',
    'SUBSCRIPTION_STATUS_INVALID',
    `A subscription with status ${status} cannot ${change}: renew and cancel need ACTIVE (0), end needs ACTIVE or ENDING (2).`,
  );
}

/**
 * The change as D:resources/subscription.mdx and the subscriptions guide describe it:
 * - renew (a payment went through; ACTIVE only): the period moves one month on. The
 *   entitlement does not change (no entitlement event since the October 2024 migration).
 * - cancel (ACTIVE only): ENDING, `canceled_at` now; the entitlement stays valid.
 * - end (ACTIVE or ENDING): INACTIVE; the entitlements get `ends_at` now.
 */
export function planSubscriptionChange(
  subscription: Omit<SubscriptionRecord, 'entitlementIds'>,
  change: SubscriptionChange,
  now: Date,
): PlannedChange {
  const { status } = subscription;
  switch (change) {
    case 'renew':
      if (status !== SubscriptionStatus.ACTIVE) refuse(change, status);
      return {
        subscription: {
          ...subscription,
          currentPeriodStart: subscription.currentPeriodEnd,
          currentPeriodEnd: addOnePeriod(subscription.currentPeriodEnd),
        },
        endEntitlementsAt: null,
      };
    case 'cancel':
      if (status !== SubscriptionStatus.ACTIVE) refuse(change, status);
      return {
        subscription: { ...subscription, status: SubscriptionStatus.ENDING, canceledAt: now },
        endEntitlementsAt: null,
      };
    case 'end':
      if (status === SubscriptionStatus.INACTIVE) refuse(change, status);
      return {
        subscription: { ...subscription, status: SubscriptionStatus.INACTIVE },
        endEntitlementsAt: now,
      };
  }
}
