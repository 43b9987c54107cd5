import { AlreadyGrantedError, UnknownSkuError } from '../../../src/domain/monetization/monetization-errors';
import { SkuType, SubscriptionStatus } from '../../../src/domain/monetization/monetization-limits';
import type {
  EntitlementRecord,
  SubscriptionRecord,
} from '../../../src/domain/monetization/monetization-records';
import {
  planSubscriptionChange,
  type SubscriptionChange,
} from '../../../src/domain/monetization/plan-subscription-change';
import {
  planSubscriptionUpdate,
  subscriptionOwner,
  type SubscriptionUpdateFacts,
} from '../../../src/domain/monetization/plan-subscription-update';
import {
  ADA,
  GUILD,
  NOW,
  entitlement,
  eventsOf,
  sku,
  subscription,
} from '../../support/monetization-fixtures';

const PERIOD_END = new Date('2026-03-15T12:00:00.000Z');

/** The facts of `change` to `current` with its entitlements, the added SKUs known and free. */
function update(
  current: SubscriptionRecord,
  entitlements: EntitlementRecord[],
  change: SubscriptionChange,
  overrides: Partial<SubscriptionUpdateFacts> = {},
): SubscriptionUpdateFacts {
  const planned = planSubscriptionChange(current, change, NOW);
  const added = planned.swap?.added ?? [];
  return {
    subscription: current,
    entitlements,
    planned,
    addedSkus: added.map((id) => sku(id, SkuType.SUBSCRIPTION)),
    newIds: added.map((_, i) => String(90 + i)),
    held: [],
    now: NOW,
    ...overrides,
  };
}

describe('planSubscriptionUpdate', () => {
  const current = subscription('5', ['2'], { entitlementIds: ['7', '8'] });
  const refunded = entitlement('7', '2', { subscriptionId: '5', deleted: true });
  const live = entitlement('8', '2', { subscriptionId: '5' });

  it('ends each live entitlement at the end (ENTITLEMENT_UPDATE), then SUBSCRIPTION_UPDATE', () => {
    const plan = planSubscriptionUpdate(update(current, [refunded, live], 'end'));
    expect(plan.changedEntitlements).toEqual([{ ...live, endsAt: NOW }]);
    expect(plan.changedSubscription).toMatchObject({
      status: SubscriptionStatus.INACTIVE,
      entitlementIds: ['7', '8'],
    });
    expect(eventsOf(plan)).toEqual([
      ['entitlement.updated', '8'],
      ['subscription.updated', '5'],
    ]);
  });

  it('renews onto the same SKUs and cancels with SUBSCRIPTION_UPDATE only', () => {
    for (const change of ['renew', 'cancel'] as const) {
      const plan = planSubscriptionUpdate(update(current, [refunded, live], change));
      expect(plan.changedEntitlements).toEqual([]);
      expect(plan.newEntitlements).toEqual([]);
      expect(eventsOf(plan)).toEqual([['subscription.updated', '5']]);
    }
    const renewed = planSubscriptionUpdate(update(current, [live], 'renew')).changedSubscription;
    expect(renewed).toMatchObject({ currentPeriodStart: PERIOD_END, status: SubscriptionStatus.ACTIVE });
  });

  it('renews onto the renewal SKUs: the left one ends with the period, the new one starts then', () => {
    const downgrading = { ...current, renewalSkuIds: ['3'] };
    const plan = planSubscriptionUpdate(update(downgrading, [refunded, live], 'renew'));
    expect(plan.changedEntitlements).toEqual([{ ...live, endsAt: PERIOD_END }]);
    expect(plan.newEntitlements).toEqual([
      entitlement('90', '3', { subscriptionId: '5', startsAt: PERIOD_END }),
    ]);
    expect(plan.changedSubscription).toMatchObject({
      skuIds: ['3'],
      renewalSkuIds: null,
      entitlementIds: ['7', '8', '90'],
    });
    expect(eventsOf(plan)).toEqual([
      ['entitlement.updated', '8'],
      ['entitlement.created', '90'],
      ['subscription.updated', '5'],
    ]);
  });

  it('lists entitlement ids in snowflake order, not text order', () => {
    const short = subscription('5', ['2'], { entitlementIds: ['8'], renewalSkuIds: ['3'] });
    const plan = planSubscriptionUpdate(
      update(short, [entitlement('8', '2', { subscriptionId: '5' })], 'renew', { newIds: ['10'] }),
    );
    expect(plan.changedSubscription?.entitlementIds).toEqual(['8', '10']);
  });

  it('refuses a renewal SKU gone (10027) or one the owner holds already (40074)', () => {
    const downgrading = { ...current, renewalSkuIds: ['3'] };
    expect(() => planSubscriptionUpdate(update(downgrading, [live], 'renew', { addedSkus: [null] }))).toThrow(
      UnknownSkuError,
    );
    expect(() =>
      planSubscriptionUpdate(update(downgrading, [live], 'renew', { held: [entitlement('6', '3')] })),
    ).toThrow(AlreadyGrantedError);
  });

  it('needs one new id for each added SKU', () => {
    const downgrading = { ...current, renewalSkuIds: ['3'] };
    expect(() => planSubscriptionUpdate(update(downgrading, [live], 'renew', { newIds: [] }))).toThrow(
      'one new id for each added SKU',
    );
  });
});

describe('subscriptionOwner', () => {
  it("is the oldest live entitlement's owner, else the newest one's, else nobody", () => {
    const guild = entitlement('8', '2', { guildId: GUILD });
    expect(subscriptionOwner([entitlement('7', '2', { deleted: true, userId: '1' }), guild])).toEqual({
      userId: ADA,
      guildId: GUILD,
    });
    expect(
      subscriptionOwner([
        entitlement('7', '2', { endsAt: NOW, userId: '1' }),
        entitlement('9', '2', { endsAt: NOW, userId: '2' }),
      ]),
    ).toEqual({ userId: '2', guildId: null });
    expect(subscriptionOwner([])).toEqual({ userId: null, guildId: null });
  });
});
