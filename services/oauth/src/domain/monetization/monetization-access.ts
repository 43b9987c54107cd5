import { UnknownEntitlementError, UnknownSkuError, UnknownSubscriptionError } from './monetization-errors';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from './monetization-records';

/**
 * The entitlement, when the application owns it and, for a Bearer caller (`userId` set),
 * it is the caller's; 404 / 10029 otherwise (another's is as unknown as a missing one).
 */
export function requireVisibleEntitlement(
  entitlement: EntitlementRecord | null,
  applicationId: string,
  userId: string | null,
): EntitlementRecord {
  if (
    !entitlement ||
    entitlement.applicationId !== applicationId ||
    (userId !== null && entitlement.userId !== userId)
  ) {
    throw new UnknownEntitlementError();
  }
  return entitlement;
}

/** The application's own SKU; 404 / 10027 for an unknown one or another application's. */
export function requireOwnSku(sku: SkuRecord | null, applicationId: string): SkuRecord {
  if (!sku || sku.applicationId !== applicationId) throw new UnknownSkuError();
  return sku;
}

/** The subscription; 404 / 0 when unknown. */
export function requireSubscription<S>(subscription: S | null): S {
  if (!subscription) throw new UnknownSubscriptionError();
  return subscription;
}

/**
 * The subscription, when it holds the SKU `skuId` and, for a Bearer caller (`userId`
 * set), is the caller's; 404 / 0 otherwise.
 */
export function requireVisibleSubscription<S extends Pick<SubscriptionRecord, 'skuIds' | 'userId'>>(
  subscription: S | null,
  skuId: string,
  userId: string | null,
): S {
  if (
    !subscription ||
    !subscription.skuIds.includes(skuId) ||
    (userId !== null && subscription.userId !== userId)
  ) {
    throw new UnknownSubscriptionError();
  }
  return subscription;
}

/**
 * Whose entitlements or subscriptions a list shows: a Bearer caller's (`callerId`) own, whatever the query
 * asks, and none when it asks for another user's; a bot's, the query's `user_id`.
 * `null`: the list is empty. `{ userId: null }`: every user's.
 */
export function scopeListToCaller(
  queryUserId: string | null,
  callerId: string | null,
): { userId: string | null } | null {
  if (callerId === null) return { userId: queryUserId };
  if (queryUserId !== null && queryUserId !== callerId) return null;
  return { userId: callerId };
}
