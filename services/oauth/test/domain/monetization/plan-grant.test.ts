import {
  InvalidSkuError,
  AlreadyGrantedError,
  UnknownSkuError,
} from '../../../src/domain/monetization/monetization-errors';
import { EntitlementType, SkuType } from '../../../src/domain/monetization/monetization-limits';
import { blocksNewGrant, planGrant, type GrantFacts } from '../../../src/domain/monetization/plan-grant';
import { UnknownUserError } from '../../../src/domain/oauth-errors';
import {
  ADA,
  APP,
  GUILD,
  NOW,
  OTHER_APP,
  entitlement,
  eventsOf,
  sku,
} from '../../support/monetization-fixtures';

/** A purchase of a durable SKU by ADA, nothing held. */
function purchase(overrides: Partial<GrantFacts> = {}): GrantFacts {
  return {
    applicationId: null,
    entitlement: {
      id: '50',
      grant: { skuId: '2', owner: { userId: ADA, guildId: null } },
      type: EntitlementType.PURCHASE,
      startsAt: NOW,
    },
    sku: sku('2', SkuType.DURABLE),
    user: { bot: false },
    held: [],
    now: NOW,
    ...overrides,
  };
}

/** A test entitlement asked by APP. */
function testGrant(skuType: number, overrides: Partial<GrantFacts> = {}): GrantFacts {
  const base = purchase();
  return purchase({
    applicationId: APP,
    entitlement: { ...base.entitlement, type: EntitlementType.TEST_MODE_PURCHASE, startsAt: null },
    sku: sku('2', skuType),
    ...overrides,
  });
}

describe('planGrant', () => {
  it('plans a purchase: the entitlement, then ENTITLEMENT_CREATE', () => {
    const plan = planGrant(purchase());
    expect(plan.newEntitlements).toEqual([entitlement('50', '2', { startsAt: NOW })]);
    expect(eventsOf(plan)).toEqual([['entitlement.created', '50']]);
    expect(plan.changedEntitlements).toEqual([]);
    expect(plan.newSubscription).toBeNull();
  });

  it("plans a guild's purchase for the guild and its buyer", () => {
    const plan = planGrant(
      purchase({
        entitlement: {
          ...purchase().entitlement,
          grant: { skuId: '2', owner: { userId: null, guildId: GUILD } },
        },
        user: null,
      }),
    );
    expect(plan.newEntitlements[0]).toMatchObject({ userId: null, guildId: GUILD });
  });

  it('refuses an unknown SKU (10027) before anything else', () => {
    expect(() => planGrant(purchase({ sku: null, user: null }))).toThrow(UnknownSkuError);
  });

  it('refuses groups, subscription SKUs bought outright and another application’s SKU (50057)', () => {
    expect(() => planGrant(purchase({ sku: sku('2', SkuType.SUBSCRIPTION_GROUP) }))).toThrow(InvalidSkuError);
    expect(() => planGrant(purchase({ sku: sku('2', SkuType.SUBSCRIPTION) }))).toThrow(InvalidSkuError);
    expect(() => planGrant(testGrant(SkuType.SUBSCRIPTION_GROUP))).toThrow(InvalidSkuError);
    expect(() => planGrant(testGrant(SkuType.DURABLE, { applicationId: OTHER_APP }))).toThrow(
      InvalidSkuError,
    );
    // 50057 comes before the user check.
    expect(() => planGrant(purchase({ sku: sku('2', SkuType.SUBSCRIPTION), user: null }))).toThrow(
      InvalidSkuError,
    );
  });

  it('grants a test entitlement to any of its own SKUs but a group, with no start', () => {
    const plan = planGrant(testGrant(SkuType.SUBSCRIPTION));
    expect(plan.newEntitlements[0]).toMatchObject({
      type: EntitlementType.TEST_MODE_PURCHASE,
      startsAt: null,
    });
  });

  it('refuses an unknown user and a bot (10013)', () => {
    expect(() => planGrant(purchase({ user: null }))).toThrow(UnknownUserError);
    expect(() => planGrant(purchase({ user: { bot: true } }))).toThrow(UnknownUserError);
  });

  it('refuses a second grant while an active one is held (40074), not after it is consumed, deleted or ended', () => {
    expect(() => planGrant(purchase({ held: [entitlement('9', '2')] }))).toThrow(AlreadyGrantedError);
    for (const spent of [{ consumed: true }, { deleted: true }, { endsAt: NOW }]) {
      expect(planGrant(purchase({ held: [entitlement('9', '2', spent)] })).newEntitlements).toHaveLength(1);
    }
    // Another SKU's entitlement does not count; one ending later does.
    expect(planGrant(purchase({ held: [entitlement('9', '3')] })).newEntitlements).toHaveLength(1);
    expect(() =>
      planGrant(purchase({ held: [entitlement('9', '2', { endsAt: new Date(NOW.getTime() + 1) })] })),
    ).toThrow(AlreadyGrantedError);
  });

  it('says which entitlements block a new grant', () => {
    expect(blocksNewGrant(entitlement('9', '2'), NOW)).toBe(true);
    expect(blocksNewGrant(entitlement('9', '2', { consumed: true }), NOW)).toBe(false);
    expect(blocksNewGrant(entitlement('9', '2', { deleted: true }), NOW)).toBe(false);
    expect(blocksNewGrant(entitlement('9', '2', { endsAt: NOW }), NOW)).toBe(false);
  });
});
