import type { SubscriptionStatus } from './monetization-limits';

/** A SKU as the store holds it. */
export interface SkuRecord {
  id: string;
  applicationId: string;
  type: number;
  name: string;
  slug: string;
  flags: number;
}

/** An entitlement as the store holds it. */
export interface EntitlementRecord {
  id: string;
  applicationId: string;
  skuId: string;
  /** The user it was granted to (or who bought it for a guild); null for a guild's test entitlement. */
  userId: string | null;
  guildId: string | null;
  type: number;
  deleted: boolean;
  consumed: boolean;
  /** Null for test entitlements (valid forever). */
  startsAt: Date | null;
  endsAt: Date | null;
  subscriptionId: string | null;
}

/** A subscription as the store holds it. */
export interface SubscriptionRecord {
  id: string;
  applicationId: string;
  userId: string;
  skuIds: string[];
  entitlementIds: string[];
  renewalSkuIds: string[] | null;
  status: SubscriptionStatus;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  canceledAt: Date | null;
}
