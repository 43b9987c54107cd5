import {
  InvalidSkuError,
  UnknownSubscriptionError,
} from '../../../src/domain/monetization/monetization-errors';
import { SkuType } from '../../../src/domain/monetization/monetization-limits';
import { planRenewalSkus } from '../../../src/domain/monetization/plan-renewal-skus';
import { OTHER_APP, eventsOf, sku, subscription } from '../../support/monetization-fixtures';

describe('planRenewalSkus', () => {
  const current = subscription('5', ['2'], { entitlementIds: ['7'] });

  it("sets the application's subscription SKUs, or clears them: SUBSCRIPTION_UPDATE", () => {
    const plan = planRenewalSkus(
      current,
      ['3', '4'],
      [sku('3', SkuType.SUBSCRIPTION), sku('4', SkuType.SUBSCRIPTION)],
    );
    expect(plan.changedSubscription).toEqual({ ...current, renewalSkuIds: ['3', '4'] });
    expect(eventsOf(plan)).toEqual([['subscription.updated', '5']]);
    const cleared = planRenewalSkus({ ...current, renewalSkuIds: ['3'] }, null, []);
    expect(cleared.changedSubscription?.renewalSkuIds).toBeNull();
  });

  it("refuses unknown SKUs, other kinds and another application's (50057)", () => {
    expect(() => planRenewalSkus(current, ['3'], [])).toThrow(InvalidSkuError);
    expect(() => planRenewalSkus(current, ['3'], [sku('3', SkuType.DURABLE)])).toThrow(InvalidSkuError);
    expect(() =>
      planRenewalSkus(current, ['3'], [sku('3', SkuType.SUBSCRIPTION, { applicationId: OTHER_APP })]),
    ).toThrow(InvalidSkuError);
  });

  it('refuses an unknown subscription (404)', () => {
    expect(() => planRenewalSkus(null, null, [])).toThrow(UnknownSubscriptionError);
  });
});
