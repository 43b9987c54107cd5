import { EntitlementType } from './monetization-limits';
import { monetizationPlan, type MonetizationEvent, type MonetizationPlan } from './monetization-plan';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from './monetization-records';
import type { PlannedChange } from './plan-subscription-change';
import { planNewEntitlement, requireSku } from './plan-grant';
import type { EntitlementOwner } from './validate-monetization-bodies';

/** What the store read to apply a planned change (planSubscriptionChange), the rows locked. */
export interface SubscriptionUpdateFacts {
  subscription: SubscriptionRecord;
  /** Every entitlement of the subscription. */
  entitlements: EntitlementRecord[];
  planned: PlannedChange;
  /** The SKUs `planned.swap.added` names, in its order (null: unknown). */
  addedSkus: (SkuRecord | null)[];
  /** The ids of the entitlements the added SKUs get, in the same order. */
  newIds: string[];
  /** The owner's (subscriptionOwner) entitlements to the added SKUs that are neither deleted nor consumed. */
  held: EntitlementRecord[];
  now: Date;
}

/** Ids in snowflake order (numeric: ids of different lengths do not sort as text). */
function byId<T extends { id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

/** The entitlements that grant the subscription's SKUs now: not deleted, not ended; oldest first. */
function liveOf(entitlements: readonly EntitlementRecord[]): EntitlementRecord[] {
  return byId(entitlements.filter((e) => !e.deleted && e.endsAt === null));
}

/**
 * Who the subscription's entitlements go to: the owner of its oldest live entitlement, else
 * of its newest one (a guild subscription's name the guild and the buying user).
 */
export function subscriptionOwner(entitlements: readonly EntitlementRecord[]): EntitlementOwner {
  const owner = liveOf(entitlements)[0] ?? byId(entitlements).at(-1);
  return { userId: owner?.userId ?? null, guildId: owner?.guildId ?? null };
}

/**
 * The writes of a planned change: at its end each live entitlement gets `ends_at`
 * (ENTITLEMENT_UPDATE each, oldest first); a renewal onto other SKUs ends the live
 * entitlements of the SKUs it leaves with the old period (ENTITLEMENT_UPDATE) and gives the
 * new SKUs entitlements from then on, for the same owner (ENTITLEMENT_CREATE; 404 / 10027
 * for a SKU gone, 400 / 40074 when the owner holds an active one); then the subscription
 * (SUBSCRIPTION_UPDATE), its entitlements listed with the new ones.
 */
export function planSubscriptionUpdate(facts: SubscriptionUpdateFacts): MonetizationPlan {
  const { planned, now } = facts;
  const live = liveOf(facts.entitlements);
  const changedEntitlements: EntitlementRecord[] = [];
  const newEntitlements: EntitlementRecord[] = [];
  if (planned.endEntitlementsAt !== null) {
    const at = planned.endEntitlementsAt;
    changedEntitlements.push(...live.map((e) => ({ ...e, endsAt: at })));
  }
  const { swap } = planned;
  if (swap && facts.newIds.length !== swap.added.length) {
    throw new Error('planSubscriptionUpdate needs one new id for each added SKU');
  }
  if (swap) {
    const left = live.filter((e) => swap.ended.includes(e.skuId));
    changedEntitlements.push(...left.map((e) => ({ ...e, endsAt: swap.at })));
    const owner = subscriptionOwner(facts.entitlements);
    swap.added.forEach((skuId, i) => {
      const sku = requireSku(facts.addedSkus[i] ?? null);
      const entitlement = planNewEntitlement(
        sku,
        {
          id: facts.newIds[i] as string,
          grant: { skuId, owner },
          type: EntitlementType.PURCHASE,
          startsAt: swap.at,
          subscriptionId: facts.subscription.id,
        },
        [...facts.held, ...newEntitlements],
        now,
      );
      newEntitlements.push(entitlement);
    });
  }
  const subscription: SubscriptionRecord = {
    ...planned.subscription,
    entitlementIds: byId([
      ...facts.subscription.entitlementIds.map((id) => ({ id })),
      ...newEntitlements,
    ]).map((e) => e.id),
  };
  const events: MonetizationEvent[] = [
    ...changedEntitlements.map((entitlement) => ({ type: 'entitlement.updated' as const, entitlement })),
    ...newEntitlements.map((entitlement) => ({ type: 'entitlement.created' as const, entitlement })),
    { type: 'subscription.updated', subscription },
  ];
  return monetizationPlan({
    changedSubscription: subscription,
    changedEntitlements,
    newEntitlements,
    events,
  });
}
