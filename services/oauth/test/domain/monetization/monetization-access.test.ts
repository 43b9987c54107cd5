import {
  requireOwnSku,
  requireSubscription,
  requireVisibleEntitlement,
  requireVisibleSubscription,
  scopeListToCaller,
} from '../../../src/domain/monetization/monetization-access';
import {
  UnknownEntitlementError,
  UnknownSkuError,
  UnknownSubscriptionError,
} from '../../../src/domain/monetization/monetization-errors';
import { SkuType } from '../../../src/domain/monetization/monetization-limits';
import { ADA, APP, OTHER_APP, entitlement, sku, subscription } from '../../support/monetization-fixtures';

describe('who sees monetization records', () => {
  it('shows an entitlement to its application, and to a Bearer caller only their own (10029 otherwise)', () => {
    const mine = entitlement('1', '2');
    expect(requireVisibleEntitlement(mine, APP, null)).toBe(mine);
    expect(requireVisibleEntitlement(mine, APP, ADA)).toBe(mine);
    expect(() => requireVisibleEntitlement(mine, OTHER_APP, null)).toThrow(UnknownEntitlementError);
    expect(() => requireVisibleEntitlement(mine, APP, '999')).toThrow(UnknownEntitlementError);
    expect(() => requireVisibleEntitlement(entitlement('1', '2', { userId: null }), APP, ADA)).toThrow(
      UnknownEntitlementError,
    );
    expect(() => requireVisibleEntitlement(null, APP, null)).toThrow(UnknownEntitlementError);
  });

  it("shows a SKU to its application only (10027 for another's or none)", () => {
    const own = sku('2', SkuType.DURABLE);
    expect(requireOwnSku(own, APP)).toBe(own);
    expect(() => requireOwnSku(own, OTHER_APP)).toThrow(UnknownSkuError);
    expect(() => requireOwnSku(null, APP)).toThrow(UnknownSkuError);
  });

  it('shows a subscription under a SKU it holds, to a Bearer caller only their own (404 otherwise)', () => {
    const held = subscription('5', ['2']);
    expect(requireVisibleSubscription(held, '2', null)).toBe(held);
    expect(requireVisibleSubscription(held, '2', ADA)).toBe(held);
    expect(() => requireVisibleSubscription(held, '3', null)).toThrow(UnknownSubscriptionError);
    expect(() => requireVisibleSubscription(held, '2', '999')).toThrow(UnknownSubscriptionError);
    expect(() => requireVisibleSubscription(null, '2', null)).toThrow(UnknownSubscriptionError);
    expect(requireSubscription(held)).toBe(held);
    expect(() => requireSubscription(null)).toThrow(UnknownSubscriptionError);
  });

  it("lists a bot the query's user (or everyone's), a Bearer caller only their own", () => {
    expect(scopeListToCaller(null, null)).toEqual({ userId: null });
    expect(scopeListToCaller(ADA, null)).toEqual({ userId: ADA });
    expect(scopeListToCaller(null, ADA)).toEqual({ userId: ADA });
    expect(scopeListToCaller(ADA, ADA)).toEqual({ userId: ADA });
    expect(scopeListToCaller('999', ADA)).toBeNull();
  });
});
