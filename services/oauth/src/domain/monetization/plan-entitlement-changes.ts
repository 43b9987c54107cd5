import { NotConsumableError, NotTestEntitlementError, UnknownEntitlementError } from './monetization-errors';
import { EntitlementType, SkuType, SubscriptionStatus } from './monetization-limits';
import { monetizationPlan, type MonetizationPlan } from './monetization-plan';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from './monetization-records';

/**
 * Consuming a visible entitlement (requireVisibleEntitlement): `consumed` (again: no
 * change), no event; 400 / 40018 unless its SKU is CONSUMABLE.
 */
export function planConsume(entitlement: EntitlementRecord, sku: SkuRecord | null): MonetizationPlan {
  if (sku?.type !== SkuType.CONSUMABLE) throw new NotConsumableError();
  return monetizationPlan({ changedEntitlements: [{ ...entitlement, consumed: true }] });
}

/**
 * Deleting a visible test entitlement: `deleted`, ENTITLEMENT_DELETE; 404 / 10029 when it
 * is already deleted, 400 / 40019 for any other type.
 */
export function planTestEntitlementDeletion(entitlement: EntitlementRecord): MonetizationPlan {
  if (entitlement.deleted) throw new UnknownEntitlementError();
  if (entitlement.type !== EntitlementType.TEST_MODE_PURCHASE) throw new NotTestEntitlementError();
  const deleted = { ...entitlement, deleted: true };
  return monetizationPlan({
    changedEntitlements: [deleted],
    events: [{ type: 'entitlement.deleted', entitlement: deleted }],
  });
}

/**
 * A refund: the entitlement `deleted` (ENTITLEMENT_DELETE) and its subscription, when it
 * has one, INACTIVE (SUBSCRIPTION_UPDATE). 404 / 10029 for an unknown or deleted one.
 */
export function planRefund(
  entitlement: EntitlementRecord | null,
  subscription: SubscriptionRecord | null,
): MonetizationPlan {
  if (!entitlement || entitlement.deleted) throw new UnknownEntitlementError();
  const deleted = { ...entitlement, deleted: true };
  const ended =
    entitlement.subscriptionId !== null && subscription?.id === entitlement.subscriptionId
      ? { ...subscription, status: SubscriptionStatus.INACTIVE }
      : null;
  return monetizationPlan({
    changedEntitlements: [deleted],
    changedSubscription: ended,
    events: [
      { type: 'entitlement.deleted', entitlement: deleted },
      ...(ended ? [{ type: 'subscription.updated' as const, subscription: ended }] : []),
    ],
  });
}
