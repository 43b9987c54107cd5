import {
  AlreadyGrantedError,
  InvalidSkuError,
  UnknownSkuError,
} from '../../../src/domain/monetization/monetization-errors';
import {
  EntitlementType,
  SkuFlag,
  SkuType,
  SubscriptionStatus,
} from '../../../src/domain/monetization/monetization-limits';
import {
  planSubscriptionStart,
  type SubscriptionStartFacts,
} from '../../../src/domain/monetization/plan-subscription-start';
import { UnknownUserError } from '../../../src/domain/oauth-errors';
import {
  ADA,
  APP,
  GUILD,
  NOW,
  entitlement,
  eventsOf,
  sku,
  subscription,
} from '../../support/monetization-fixtures';

function start(overrides: Partial<SubscriptionStartFacts> = {}): SubscriptionStartFacts {
  return {
    ids: { subscription: '60', entitlement: '61' },
    grant: { skuId: '5', owner: { userId: ADA, guildId: null } },
    sku: sku('5', SkuType.SUBSCRIPTION),
    user: { bot: false },
    subscriptions: [],
    held: [],
    now: NOW,
    ...overrides,
  };
}

describe('planSubscriptionStart', () => {
  it('starts an ACTIVE month with its PURCHASE entitlement: SUBSCRIPTION_CREATE, then ENTITLEMENT_CREATE', () => {
    const plan = planSubscriptionStart(start());
    expect(plan.newSubscription).toEqual({
      id: '60',
      applicationId: APP,
      userId: ADA,
      skuIds: ['5'],
      entitlementIds: ['61'],
      renewalSkuIds: null,
      status: SubscriptionStatus.ACTIVE,
      currentPeriodStart: NOW,
      currentPeriodEnd: new Date('2026-04-15T12:00:00.000Z'),
      canceledAt: null,
    });
    expect(plan.newEntitlements).toEqual([
      entitlement('61', '5', { type: EntitlementType.PURCHASE, startsAt: NOW, subscriptionId: '60' }),
    ]);
    expect(eventsOf(plan)).toEqual([
      ['subscription.created', '60'],
      ['entitlement.created', '61'],
    ]);
  });

  it('refuses an unknown SKU (10027) and other kinds of SKU (50057)', () => {
    expect(() => planSubscriptionStart(start({ sku: null }))).toThrow(UnknownSkuError);
    expect(() => planSubscriptionStart(start({ sku: sku('5', SkuType.DURABLE) }))).toThrow(InvalidSkuError);
  });

  it('needs a guild exactly for a GUILD_SUBSCRIPTION SKU (50057)', () => {
    const guildSku = sku('5', SkuType.SUBSCRIPTION, {
      flags: SkuFlag.AVAILABLE | SkuFlag.GUILD_SUBSCRIPTION,
    });
    const forGuild = { skuId: '5', owner: { userId: ADA, guildId: GUILD } };
    expect(() => planSubscriptionStart(start({ sku: guildSku }))).toThrow(InvalidSkuError);
    expect(() => planSubscriptionStart(start({ grant: forGuild }))).toThrow(InvalidSkuError);
    const plan = planSubscriptionStart(start({ sku: guildSku, grant: forGuild }));
    expect(plan.newEntitlements[0]).toMatchObject({ userId: ADA, guildId: GUILD });
  });

  it('refuses an unknown user or a bot (10013)', () => {
    expect(() => planSubscriptionStart(start({ user: null }))).toThrow(UnknownUserError);
    expect(() => planSubscriptionStart(start({ user: { bot: true } }))).toThrow(UnknownUserError);
  });

  it('refuses while the user’s subscription to the SKU is not INACTIVE (40074)', () => {
    for (const status of [SubscriptionStatus.ACTIVE, SubscriptionStatus.ENDING]) {
      const current = subscription('1', ['5'], { status });
      expect(() => planSubscriptionStart(start({ subscriptions: [current] }))).toThrow(AlreadyGrantedError);
    }
    const over = subscription('1', ['5'], { status: SubscriptionStatus.INACTIVE });
    expect(planSubscriptionStart(start({ subscriptions: [over] })).newSubscription?.id).toBe('60');
  });

  it('refuses while the owner holds an active entitlement to the SKU (40074)', () => {
    expect(() => planSubscriptionStart(start({ held: [entitlement('9', '5')] }))).toThrow(
      AlreadyGrantedError,
    );
  });
});
