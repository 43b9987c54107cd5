// The monetization facts of D:resources/sku.mdx, entitlement.mdx and subscription.mdx.

/** SKU types. SUBSCRIPTION_GROUP is created with each SUBSCRIPTION SKU and never sold. */
export const SkuType = { DURABLE: 2, CONSUMABLE: 3, SUBSCRIPTION: 5, SUBSCRIPTION_GROUP: 6 } as const;

/** The SKU types the admin API creates. */
export const CREATABLE_SKU_TYPES = [SkuType.DURABLE, SkuType.CONSUMABLE, SkuType.SUBSCRIPTION] as const;

/** SKU flags. */
export const SkuFlag = { AVAILABLE: 1 << 2, GUILD_SUBSCRIPTION: 1 << 7, USER_SUBSCRIPTION: 1 << 8 } as const;

/** Every SKU flag bit. */
export const ALL_SKU_FLAGS = SkuFlag.AVAILABLE | SkuFlag.GUILD_SUBSCRIPTION | SkuFlag.USER_SUBSCRIPTION;

/**
 * Entitlement types ACS grants: PURCHASE for purchases and (since the October 2024
 * migration) Discord-managed subscriptions, TEST_MODE_PURCHASE for test entitlements.
 */
export const EntitlementType = { PURCHASE: 1, TEST_MODE_PURCHASE: 4 } as const;

/** `owner_type` of a test entitlement. */
export const OwnerType = { GUILD: 1, USER: 2 } as const;

/** Subscription statuses. */
export const SubscriptionStatus = { ACTIVE: 0, INACTIVE: 1, ENDING: 2 } as const;
export type SubscriptionStatus = (typeof SubscriptionStatus)[keyof typeof SubscriptionStatus];

/** `limit` of List Entitlements: 1-100, default 100. */
export const MAX_ENTITLEMENTS_LIMIT = 100;
/** `limit` of List SKU Subscriptions: 1-100, default 50. */
export const MAX_SUBSCRIPTIONS_LIMIT = 100;
export const DEFAULT_SUBSCRIPTIONS_LIMIT = 50;
/** `sku_ids` of List Entitlements: at most this many (ours: the query stays one cheap index scan). */
export const MAX_SKU_IDS_FILTER = 100;
/** A SKU's name: 1-100 characters (ours; the portal's limit is not public). */
export const MAX_SKU_NAME_LENGTH = 100;
/** A subscription's `renewal_sku_ids`: at most this many SKUs. */
export const MAX_RENEWAL_SKUS = 10;
