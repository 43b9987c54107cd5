import { SkuType } from '../../../src/domain/monetization/monetization-limits';
import { planSkuCreation } from '../../../src/domain/monetization/plan-sku-creation';
import { UnknownApplicationError } from '../../../src/domain/oauth-errors';
import { APP } from '../../support/monetization-fixtures';

describe('planSkuCreation', () => {
  const ids = { sku: '11', group: '10' };

  it('creates a durable or consumable SKU alone, with no event', () => {
    const plan = planSkuCreation(true, APP, ids, {
      type: SkuType.DURABLE,
      name: 'Pass',
      slug: 'pass',
      flags: 4,
    });
    expect(plan.newSkus).toEqual([
      { id: '11', applicationId: APP, type: SkuType.DURABLE, name: 'Pass', slug: 'pass', flags: 4 },
    ]);
    expect(plan.events).toEqual([]);
  });

  it('gives a subscription SKU its SUBSCRIPTION_GROUP first', () => {
    const plan = planSkuCreation(true, APP, ids, {
      type: SkuType.SUBSCRIPTION,
      name: 'Gold',
      slug: 'gold',
      flags: 260,
    });
    expect(plan.newSkus.map((s) => [s.id, s.type, s.name])).toEqual([
      ['10', SkuType.SUBSCRIPTION_GROUP, 'Gold'],
      ['11', SkuType.SUBSCRIPTION, 'Gold'],
    ]);
  });

  it('refuses an unknown application (10002)', () => {
    expect(() => planSkuCreation(false, APP, ids, { type: 2, name: 'x', slug: 'x', flags: 4 })).toThrow(
      UnknownApplicationError,
    );
  });
});
