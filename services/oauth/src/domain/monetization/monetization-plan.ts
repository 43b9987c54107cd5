import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from './monetization-records';

/** A subscription as read under its lock: every field but its entitlements. */
export type SubscriptionState = Omit<SubscriptionRecord, 'entitlementIds'>;

/** An event a monetization change announces (`oauth.<type>` of the catalog), with the record it shows. */
export type MonetizationEvent =
  | {
      type: 'entitlement.created' | 'entitlement.updated' | 'entitlement.deleted';
      entitlement: EntitlementRecord;
    }
  | { type: 'subscription.created' | 'subscription.updated'; subscription: SubscriptionRecord };

/**
 * What a monetization change writes, decided before anything is written: the store applies
 * it in one transaction, rows first (a subscription before the entitlements that reference
 * it), then `events` to the outbox in their order.
 */
export interface MonetizationPlan {
  newSkus: SkuRecord[];
  newSubscription: SubscriptionRecord | null;
  /** A subscription written whole (status, period, cancelation, SKUs, renewal SKUs). */
  changedSubscription: SubscriptionRecord | null;
  newEntitlements: EntitlementRecord[];
  /** Entitlements written whole (`deleted`, `consumed`, `ends_at`). */
  changedEntitlements: EntitlementRecord[];
  events: MonetizationEvent[];
}

/** A plan of `parts`, writing nothing else. */
export function monetizationPlan(parts: Partial<MonetizationPlan>): MonetizationPlan {
  return {
    newSkus: [],
    newSubscription: null,
    changedSubscription: null,
    newEntitlements: [],
    changedEntitlements: [],
    events: [],
    ...parts,
  };
}
