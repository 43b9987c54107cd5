import {
  NotConsumableError,
  NotTestEntitlementError,
  UnknownEntitlementError,
} from '../../../src/domain/monetization/monetization-errors';
import {
  EntitlementType,
  SkuType,
  SubscriptionStatus,
} from '../../../src/domain/monetization/monetization-limits';
import {
  planConsume,
  planRefund,
  planTestEntitlementDeletion,
} from '../../../src/domain/monetization/plan-entitlement-changes';
import { entitlement, eventsOf, sku, subscription } from '../../support/monetization-fixtures';

describe('planConsume', () => {
  it('marks a consumable’s entitlement consumed, with no event, again when it already is', () => {
    const plan = planConsume(entitlement('1', '2'), sku('2', SkuType.CONSUMABLE));
    expect(plan.changedEntitlements).toEqual([entitlement('1', '2', { consumed: true })]);
    expect(plan.events).toEqual([]);
    const again = planConsume(entitlement('1', '2', { consumed: true }), sku('2', SkuType.CONSUMABLE));
    expect(again.changedEntitlements[0]?.consumed).toBe(true);
  });

  it('refuses other SKUs (40018)', () => {
    for (const type of [SkuType.DURABLE, SkuType.SUBSCRIPTION]) {
      expect(() => planConsume(entitlement('1', '2'), sku('2', type))).toThrow(NotConsumableError);
    }
    expect(() => planConsume(entitlement('1', '2'), null)).toThrow(NotConsumableError);
  });
});

describe('planTestEntitlementDeletion', () => {
  const test = entitlement('1', '2', { type: EntitlementType.TEST_MODE_PURCHASE, startsAt: null });

  it('marks a test entitlement deleted: ENTITLEMENT_DELETE', () => {
    const plan = planTestEntitlementDeletion(test);
    expect(plan.changedEntitlements).toEqual([{ ...test, deleted: true }]);
    expect(eventsOf(plan)).toEqual([['entitlement.deleted', '1']]);
  });

  it('refuses a deleted one (10029) and any other type (40019)', () => {
    expect(() => planTestEntitlementDeletion({ ...test, deleted: true })).toThrow(UnknownEntitlementError);
    expect(() => planTestEntitlementDeletion(entitlement('1', '2'))).toThrow(NotTestEntitlementError);
  });
});

describe('planRefund', () => {
  it('deletes a purchase: ENTITLEMENT_DELETE only', () => {
    const plan = planRefund(entitlement('1', '2'), null);
    expect(plan.changedEntitlements).toEqual([entitlement('1', '2', { deleted: true })]);
    expect(plan.changedSubscription).toBeNull();
    expect(eventsOf(plan)).toEqual([['entitlement.deleted', '1']]);
  });

  it("ends a subscription's with its subscription: ENTITLEMENT_DELETE, then SUBSCRIPTION_UPDATE (INACTIVE)", () => {
    const owned = subscription('5', ['2'], { entitlementIds: ['1'] });
    const plan = planRefund(entitlement('1', '2', { subscriptionId: '5' }), owned);
    expect(plan.changedSubscription).toEqual({ ...owned, status: SubscriptionStatus.INACTIVE });
    expect(eventsOf(plan)).toEqual([
      ['entitlement.deleted', '1'],
      ['subscription.updated', '5'],
    ]);
  });

  it('refuses an unknown or already deleted entitlement (10029)', () => {
    expect(() => planRefund(null, null)).toThrow(UnknownEntitlementError);
    expect(() => planRefund(entitlement('1', '2', { deleted: true }), null)).toThrow(UnknownEntitlementError);
  });
});
