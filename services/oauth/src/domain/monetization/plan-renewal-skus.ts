import { requireSubscription } from './monetization-access';
import { InvalidSkuError } from './monetization-errors';
import { SkuType } from './monetization-limits';
import { monetizationPlan, type MonetizationPlan } from './monetization-plan';
import type { SkuRecord, SubscriptionRecord } from './monetization-records';

/**
 * Sets the SKUs a subscription takes at renewal (null: it keeps its own), SUBSCRIPTION_UPDATE.
 * 404 / 0 for an unknown subscription; 400 / 50057 unless each id (distinct) names a
 * SUBSCRIPTION SKU of the subscription's application. `skus`: the SKUs the ids name.
 */
export function planRenewalSkus(
  found: SubscriptionRecord | null,
  renewalSkuIds: string[] | null,
  skus: readonly SkuRecord[],
): MonetizationPlan {
  const subscription = requireSubscription(found);
  if (renewalSkuIds !== null) {
    const valid = skus.filter(
      (s) =>
        renewalSkuIds.includes(s.id) &&
        s.type === SkuType.SUBSCRIPTION &&
        s.applicationId === subscription.applicationId,
    );
    if (valid.length !== renewalSkuIds.length) throw new InvalidSkuError();
  }
  const changed = { ...subscription, renewalSkuIds };
  return monetizationPlan({
    changedSubscription: changed,
    events: [{ type: 'subscription.updated', subscription: changed }],
  });
}
