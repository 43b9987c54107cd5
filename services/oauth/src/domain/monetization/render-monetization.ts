import { EntitlementType } from './monetization-limits';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from './monetization-records';

/** A time as the API writes these objects' timestamps: UTC, microseconds, "+00:00" (D examples). */
export function formatApiTime(time: Date): string {
  return `${time.toISOString().slice(0, 23)}000+00:00`;
}

/** A time or null. */
function formatOptionalTime(time: Date | null): string | null {
  return time === null ? null : formatApiTime(time);
}

/** The SKU object (D:resources/sku.mdx §SKU Example, its keys in that order). */
export function renderSku(sku: SkuRecord) {
  return {
    id: sku.id,
    type: sku.type,
    dependent_sku_id: null,
    application_id: sku.applicationId,
    manifest_labels: null,
    access_type: 1,
    name: sku.name,
    features: [],
    release_date: null,
    premium: false,
    slug: sku.slug,
    flags: sku.flags,
    show_age_gate: false,
  };
}

/**
 * The entitlement object (D:resources/entitlement.mdx §Entitlement Example). `user_id`
 * and `guild_id` only when set; `subscription_id` only for a subscription's. A test
 * entitlement has no `starts_at`/`ends_at` when created (`asCreatedTest`: the partial
 * object Create Test Entitlement answers); read back it shows them as null.
 */
export function renderEntitlement(entitlement: EntitlementRecord, asCreatedTest = false) {
  const isTest = entitlement.type === EntitlementType.TEST_MODE_PURCHASE;
  return {
    id: entitlement.id,
    sku_id: entitlement.skuId,
    application_id: entitlement.applicationId,
    ...(entitlement.userId !== null ? { user_id: entitlement.userId } : {}),
    promotion_id: null,
    type: entitlement.type,
    deleted: entitlement.deleted,
    gift_code_flags: 0,
    consumed: entitlement.consumed,
    ...(isTest && asCreatedTest
      ? {}
      : {
          starts_at: formatOptionalTime(entitlement.startsAt),
          ends_at: formatOptionalTime(entitlement.endsAt),
        }),
    ...(entitlement.guildId !== null ? { guild_id: entitlement.guildId } : {}),
    ...(entitlement.subscriptionId !== null ? { subscription_id: entitlement.subscriptionId } : {}),
  };
}

/** The subscription object (D:resources/subscription.mdx; `country` only with a private scope: never). */
export function renderSubscription(subscription: SubscriptionRecord) {
  return {
    id: subscription.id,
    user_id: subscription.userId,
    sku_ids: subscription.skuIds,
    entitlement_ids: subscription.entitlementIds,
    renewal_sku_ids: subscription.renewalSkuIds,
    current_period_start: formatApiTime(subscription.currentPeriodStart),
    current_period_end: formatApiTime(subscription.currentPeriodEnd),
    status: subscription.status,
    canceled_at: formatOptionalTime(subscription.canceledAt),
  };
}

/**
 * Whether an entitlement grants its SKU at `now`: not deleted, not consumed, started (or
 * a test one, which has no start) and not ended. The docs say "use the presence of an
 * entitlement"; leaving out consumed ones is our reading (a consumed item is spent).
 */
export function isEntitlementActive(entitlement: EntitlementRecord, now: Date): boolean {
  return (
    !entitlement.deleted &&
    !entitlement.consumed &&
    (entitlement.startsAt === null || entitlement.startsAt <= now) &&
    (entitlement.endsAt === null || entitlement.endsAt > now)
  );
}
