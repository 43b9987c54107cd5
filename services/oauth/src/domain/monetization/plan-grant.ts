import { UnknownUserError } from '../oauth-errors';
import { AlreadyGrantedError, InvalidSkuError, UnknownSkuError } from './monetization-errors';
import { EntitlementType, SkuType } from './monetization-limits';
import { monetizationPlan, type MonetizationPlan } from './monetization-plan';
import type { EntitlementRecord, SkuRecord } from './monetization-records';
import type { EntitlementOwner, GrantRequest } from './validate-monetization-bodies';

/** A new entitlement: who gets which SKU, how, and since when. */
export interface NewEntitlement {
  id: string;
  grant: GrantRequest;
  type: number;
  startsAt: Date | null;
}

/** A user as a grant checks them: null when unknown. */
export type GrantedUser = { bot: boolean } | null;

/** What the store read for a grant, its SKU row locked. */
export interface GrantFacts {
  /** The application asking (test entitlements), whose SKU it must be; null for the admin's purchase. */
  applicationId: string | null;
  entitlement: NewEntitlement;
  sku: SkuRecord | null;
  /** The owner's user (read when the grant names one). */
  user: GrantedUser;
  /** The owner's entitlements to the SKU that are neither deleted nor consumed. */
  held: EntitlementRecord[];
  now: Date;
}

/**
 * Whether `entitlement` keeps its owner from being granted its SKU again at `now`: not
 * deleted, not consumed, not ended (a subscription's ended entitlement does not).
 */
export function blocksNewGrant(entitlement: EntitlementRecord, now: Date): boolean {
  return (
    !entitlement.deleted && !entitlement.consumed && (entitlement.endsAt === null || entitlement.endsAt > now)
  );
}

/** 404 / 10027 unless the SKU exists. */
export function requireSku(sku: SkuRecord | null): SkuRecord {
  if (!sku) throw new UnknownSkuError();
  return sku;
}

/** 404 / 10013 unless the owner's user (when the grant names one) exists and is no bot. */
export function requireGrantedUser(owner: EntitlementOwner, user: GrantedUser): void {
  if (owner.userId !== null && (!user || user.bot)) throw new UnknownUserError();
}

/**
 * The entitlement `entitlement` of `sku` (ENTITLEMENT_CREATE); 400 / 40074 when the owner
 * holds an entitlement to it that blocks a new one.
 */
export function planNewEntitlement(
  sku: SkuRecord,
  entitlement: NewEntitlement & { subscriptionId: string | null },
  held: readonly EntitlementRecord[],
  now: Date,
): EntitlementRecord {
  if (held.some((e) => e.skuId === sku.id && blocksNewGrant(e, now))) throw new AlreadyGrantedError();
  const { owner } = entitlement.grant;
  return {
    id: entitlement.id,
    applicationId: sku.applicationId,
    skuId: sku.id,
    userId: owner.userId,
    guildId: owner.guildId,
    type: entitlement.type,
    deleted: false,
    consumed: false,
    startsAt: entitlement.startsAt,
    endsAt: null,
    subscriptionId: entitlement.subscriptionId,
  };
}

/**
 * A purchase of a durable or consumable SKU (PURCHASE) or a test entitlement to any of the
 * application's SKUs but a group (TEST_MODE_PURCHASE, no start), ENTITLEMENT_CREATE:
 * 404 / 10027 for an unknown SKU; 400 / 50057 for another application's (when
 * `applicationId` is set), a group, or a subscription SKU bought outright; 404 / 10013 for
 * an unknown user or a bot; 400 / 40074 when the owner holds an active entitlement to it.
 */
export function planGrant(facts: GrantFacts): MonetizationPlan {
  const sku = requireSku(facts.sku);
  const isTest = facts.entitlement.type === EntitlementType.TEST_MODE_PURCHASE;
  if (
    (facts.applicationId !== null && sku.applicationId !== facts.applicationId) ||
    sku.type === SkuType.SUBSCRIPTION_GROUP ||
    (!isTest && sku.type === SkuType.SUBSCRIPTION)
  ) {
    throw new InvalidSkuError();
  }
  requireGrantedUser(facts.entitlement.grant.owner, facts.user);
  const entitlement = planNewEntitlement(
    sku,
    { ...facts.entitlement, subscriptionId: null },
    facts.held,
    facts.now,
  );
  return monetizationPlan({
    newEntitlements: [entitlement],
    events: [{ type: 'entitlement.created', entitlement }],
  });
}
