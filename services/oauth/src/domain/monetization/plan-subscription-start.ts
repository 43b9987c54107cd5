import { AlreadyGrantedError, InvalidSkuError } from './monetization-errors';
import { EntitlementType, SkuFlag, SkuType, SubscriptionStatus } from './monetization-limits';
import { monetizationPlan, type MonetizationPlan, type SubscriptionState } from './monetization-plan';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from './monetization-records';
import { addOnePeriod } from './plan-subscription-change';
import { planNewEntitlement, requireGrantedUser, requireSku, type GrantedUser } from './plan-grant';
import type { GrantRequest } from './validate-monetization-bodies';

/** What the store read to start a subscription, the SKU row locked. */
export interface SubscriptionStartFacts {
  ids: { subscription: string; entitlement: string };
  grant: GrantRequest;
  sku: SkuRecord | null;
  user: GrantedUser;
  /** The user's subscriptions holding the SKU. */
  subscriptions: SubscriptionState[];
  /** The owner's entitlements to the SKU that are neither deleted nor consumed. */
  held: EntitlementRecord[];
  now: Date;
}

/**
 * Starts a subscription of a user to a SUBSCRIPTION SKU: the subscription (ACTIVE, one
 * month from now) and its entitlement (PURCHASE, `ends_at` null, as since Oct 2024),
 * SUBSCRIPTION_CREATE then ENTITLEMENT_CREATE. 404 / 10027 unknown SKU; 400 / 50057 for
 * another kind of SKU, or a guild that a user subscription names (or none for a guild
 * subscription); 404 / 10013 unknown user; 400 / 40074 when the user's subscription to it
 * is not INACTIVE, or the owner holds an active entitlement to it.
 */
export function planSubscriptionStart(facts: SubscriptionStartFacts): MonetizationPlan {
  const sku = requireSku(facts.sku);
  const { owner } = facts.grant;
  const isGuildSku = (sku.flags & SkuFlag.GUILD_SUBSCRIPTION) !== 0;
  if (sku.type !== SkuType.SUBSCRIPTION || isGuildSku !== (owner.guildId !== null)) {
    throw new InvalidSkuError();
  }
  requireGrantedUser(owner, facts.user);
  if (facts.subscriptions.some((s) => s.status !== SubscriptionStatus.INACTIVE)) {
    throw new AlreadyGrantedError();
  }
  const subscription: SubscriptionRecord = {
    id: facts.ids.subscription,
    applicationId: sku.applicationId,
    userId: owner.userId ?? '0',
    skuIds: [sku.id],
    entitlementIds: [facts.ids.entitlement],
    renewalSkuIds: null,
    status: SubscriptionStatus.ACTIVE,
    currentPeriodStart: facts.now,
    currentPeriodEnd: addOnePeriod(facts.now),
    canceledAt: null,
  };
  const entitlement = planNewEntitlement(
    sku,
    {
      id: facts.ids.entitlement,
      grant: facts.grant,
      type: EntitlementType.PURCHASE,
      startsAt: facts.now,
      subscriptionId: subscription.id,
    },
    facts.held,
    facts.now,
  );
  return monetizationPlan({
    newSubscription: subscription,
    newEntitlements: [entitlement],
    events: [
      { type: 'subscription.created', subscription },
      { type: 'entitlement.created', entitlement },
    ],
  });
}
