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
  /**
   * A renewal onto other SKUs (`renewal_sku_ids`): the entitlements of `ended` SKUs end at
   * `at` (the old period's end), and `added` SKUs get new ones starting then.
   */
  swap: { ended: string[]; added: string[]; at: Date } | null;
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
 *   entitlement does not change (no entitlement event since the October 2024 migration),
 *   unless `renewal_sku_ids` named other SKUs: then the subscription takes them (and the
 *   field is cleared), the entitlements of the SKUs it leaves end with the old period, and
 *   the new SKUs get entitlements (the guide's downgrade at renewal).
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
    case 'renew': {
      if (status !== SubscriptionStatus.ACTIVE) refuse(change, status);
      const next = subscription.renewalSkuIds ?? subscription.skuIds;
      const ended = subscription.skuIds.filter((id) => !next.includes(id));
      const added = next.filter((id) => !subscription.skuIds.includes(id));
      const at = subscription.currentPeriodEnd;
      return {
        subscription: {
          ...subscription,
          skuIds: next,
          renewalSkuIds: null,
          currentPeriodStart: at,
          currentPeriodEnd: addOnePeriod(at),
        },
        endEntitlementsAt: null,
        swap: ended.length > 0 || added.length > 0 ? { ended, added, at } : null,
      };
    }
    case 'cancel':
      if (status !== SubscriptionStatus.ACTIVE) refuse(change, status);
      return {
        subscription: { ...subscription, status: SubscriptionStatus.ENDING, canceledAt: now },
        endEntitlementsAt: null,
        swap: null,
      };
    case 'end':
      if (status === SubscriptionStatus.INACTIVE) refuse(change, status);
      return {
        subscription: { ...subscription, status: SubscriptionStatus.INACTIVE },
        endEntitlementsAt: now,
        swap: null,
      };
  }
}
