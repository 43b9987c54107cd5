import {
  EntitlementType,
  SkuFlag,
  SkuType,
  SubscriptionStatus,
} from '../../src/domain/monetization/monetization-limits';
import type {
  EntitlementRecord,
  SkuRecord,
  SubscriptionRecord,
} from '../../src/domain/monetization/monetization-records';

/** The application the fixtures belong to. */
export const APP = '100';
/** Another application. */
export const OTHER_APP = '200';
export const ADA = '300';
export const GUILD = '400';
export const NOW = new Date('2026-03-15T12:00:00.000Z');

/** A SKU of APP. */
export function sku(id: string, type: number, overrides: Partial<SkuRecord> = {}): SkuRecord {
  return {
    id,
    applicationId: APP,
    type,
    name: `sku ${id}`,
    slug: `sku-${id}`,
    flags: SkuFlag.AVAILABLE | (type === SkuType.SUBSCRIPTION ? SkuFlag.USER_SUBSCRIPTION : 0),
    ...overrides,
  };
}

/** An active purchase of `skuId` by ADA. */
export function entitlement(
  id: string,
  skuId: string,
  overrides: Partial<EntitlementRecord> = {},
): EntitlementRecord {
  return {
    id,
    applicationId: APP,
    skuId,
    userId: ADA,
    guildId: null,
    type: EntitlementType.PURCHASE,
    deleted: false,
    consumed: false,
    startsAt: new Date('2026-01-01T00:00:00.000Z'),
    endsAt: null,
    subscriptionId: null,
    ...overrides,
  };
}

/** An ACTIVE subscription of ADA to `skuIds`, its period from Feb 15 to Mar 15. */
export function subscription(
  id: string,
  skuIds: string[],
  overrides: Partial<SubscriptionRecord> = {},
): SubscriptionRecord {
  return {
    id,
    applicationId: APP,
    userId: ADA,
    skuIds,
    entitlementIds: [],
    renewalSkuIds: null,
    status: SubscriptionStatus.ACTIVE,
    currentPeriodStart: new Date('2026-02-15T12:00:00.000Z'),
    currentPeriodEnd: new Date('2026-03-15T12:00:00.000Z'),
    canceledAt: null,
    ...overrides,
  };
}

/** The events of a plan as [type, id of the record shown]. */
export function eventsOf(plan: {
  events: ({ type: string; entitlement: { id: string } } | { type: string; subscription: { id: string } })[];
}): [string, string][] {
  return plan.events.map((e) => [e.type, 'entitlement' in e ? e.entitlement.id : e.subscription.id]);
}
