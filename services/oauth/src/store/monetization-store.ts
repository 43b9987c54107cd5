import type { Pool, PoolClient } from 'pg';
import { withTransaction } from '@acs/service-kit';
import {
  requireOwnSku,
  requireSubscription,
  requireVisibleEntitlement,
  requireVisibleSubscription,
  scopeListToCaller,
} from '../domain/monetization/monetization-access';
import type { MonetizationPlan } from '../domain/monetization/monetization-plan';
import type {
  EntitlementRecord,
  SkuRecord,
  SubscriptionRecord,
} from '../domain/monetization/monetization-records';
import {
  planConsume,
  planRefund,
  planTestEntitlementDeletion,
} from '../domain/monetization/plan-entitlement-changes';
import { planGrant, type NewEntitlement } from '../domain/monetization/plan-grant';
import { planRenewalSkus } from '../domain/monetization/plan-renewal-skus';
import { planSkuCreation } from '../domain/monetization/plan-sku-creation';
import {
  planSubscriptionChange,
  type SubscriptionChange,
} from '../domain/monetization/plan-subscription-change';
import { planSubscriptionStart } from '../domain/monetization/plan-subscription-start';
import { planSubscriptionUpdate, subscriptionOwner } from '../domain/monetization/plan-subscription-update';
import type { EntitlementQuery, SubscriptionQuery } from '../domain/monetization/read-monetization-queries';
import type { GrantRequest, NewSku } from '../domain/monetization/validate-monetization-bodies';
import { applyMonetizationPlan } from './apply-monetization-plan';
import {
  SKU_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  toSku,
  toSubscription,
  type SkuRow,
  type SubscriptionRow,
} from './monetization-rows';
import { selectEntitlements, selectSubscriptions } from './select-monetization-lists';
import {
  lockEntitlement,
  lockEntitlementsOfSubscription,
  lockSku,
  lockSkus,
  lockSubscription,
  readEntitlement,
  readGrantedUser,
  readHeldEntitlements,
  readSkus,
  readSubscriptionsOfUser,
} from './read-monetization-rows';

/**
 * SKUs, entitlements and subscriptions (the oauth service owns them: they tie applications
 * to users), in plain SQL. Each change reads its facts in one transaction (the rows it
 * writes locked), asks its planner in domain/monetization/ what to write, and applies the
 * plan with its ENTITLEMENT_* / SUBSCRIPTION_* events in the same transaction.
 */
export class MonetizationStore {
  /** `snowflakes` mints the ids of the entitlements a renewal onto other SKUs grants. */
  constructor(
    private readonly pool: Pool,
    private readonly snowflakes: () => string,
  ) {}

  /** The application's SKUs, oldest first. */
  async listSkus(applicationId: bigint): Promise<SkuRecord[]> {
    const { rows } = await this.pool.query<SkuRow>(
      `SELECT ${SKU_COLUMNS} FROM "oauth"."sku" WHERE application_id = $1 ORDER BY id`,
      [applicationId.toString()],
    );
    return rows.map(toSku);
  }

  /** Creates a SKU of the application, and a subscription SKU's group (planSkuCreation). */
  async createSku(applicationId: bigint, id: string, groupId: string, sku: NewSku): Promise<SkuRecord> {
    return withTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(`SELECT 1 FROM "oauth"."application" WHERE id = $1`, [
        applicationId.toString(),
      ]);
      const plan = planSkuCreation(
        rowCount !== 0,
        applicationId.toString(),
        { sku: id, group: groupId },
        sku,
      );
      await applyMonetizationPlan(client, plan);
      return plan.newSkus.at(-1) as SkuRecord;
    });
  }

  /** The entitlements of the application matching the query, newest first (oldest first with `after`). */
  async listEntitlements(
    applicationId: bigint,
    query: EntitlementQuery,
    now: Date,
  ): Promise<EntitlementRecord[]> {
    return selectEntitlements(this.pool, applicationId.toString(), query, now);
  }

  /** The application's entitlement (of `userId` when set); 404 / 10029 otherwise. */
  async getEntitlement(applicationId: bigint, id: bigint, userId: bigint | null): Promise<EntitlementRecord> {
    const entitlement = await readEntitlement(this.pool, id.toString());
    return requireVisibleEntitlement(entitlement, applicationId.toString(), userId?.toString() ?? null);
  }

  /** Marks a visible entitlement of a CONSUMABLE SKU consumed (planConsume). */
  async consume(applicationId: bigint, id: bigint, userId: bigint | null): Promise<void> {
    await this.changeEntitlement(applicationId, id, userId, async (client, entitlement) =>
      planConsume(entitlement, (await readSkus(client, [entitlement.skuId]))[0] ?? null),
    );
  }

  /** Deletes a visible test entitlement (planTestEntitlementDeletion). */
  async deleteTestEntitlement(applicationId: bigint, id: bigint, userId: bigint | null): Promise<void> {
    await this.changeEntitlement(applicationId, id, userId, async (_client, entitlement) =>
      planTestEntitlementDeletion(entitlement),
    );
  }

  /** A purchase or a test entitlement (planGrant), the SKU row locked so that 40074 holds under races. */
  async grant(
    applicationId: bigint | null,
    entitlement: NewEntitlement,
    now: Date,
  ): Promise<EntitlementRecord> {
    return withTransaction(this.pool, async (client) => {
      const { skuId, owner } = entitlement.grant;
      const plan = planGrant({
        applicationId: applicationId?.toString() ?? null,
        entitlement,
        sku: await lockSku(client, skuId),
        user: await readGrantedUser(client, owner.userId),
        held: await readHeldEntitlements(client, [skuId], owner),
        now,
      });
      await applyMonetizationPlan(client, plan);
      return plan.newEntitlements[0] as EntitlementRecord;
    });
  }

  /** Refunds an entitlement (planRefund): deleted, and its subscription INACTIVE. */
  async refund(id: bigint): Promise<EntitlementRecord> {
    return withTransaction(this.pool, async (client) => {
      // The subscription is locked before its entitlement, as a change of it locks them.
      const found = await readEntitlement(client, id.toString());
      const subscription = found?.subscriptionId
        ? await lockSubscription(client, found.subscriptionId)
        : null;
      const plan = planRefund(await lockEntitlement(client, id.toString()), subscription);
      await applyMonetizationPlan(client, plan);
      return plan.changedEntitlements[0] as EntitlementRecord;
    });
  }

  /** Starts a subscription with its entitlement (planSubscriptionStart), the SKU row locked. */
  async createSubscription(
    ids: { subscription: string; entitlement: string },
    grant: GrantRequest,
    now: Date,
  ): Promise<SubscriptionRecord> {
    return withTransaction(this.pool, async (client) => {
      const { skuId, owner } = grant;
      const sku = await lockSku(client, skuId);
      const plan = planSubscriptionStart({
        ids,
        grant,
        sku,
        user: await readGrantedUser(client, owner.userId),
        subscriptions:
          owner.userId === null ? [] : await readSubscriptionsOfUser(client, owner.userId, skuId),
        held: await readHeldEntitlements(client, [skuId], owner),
        now,
      });
      await applyMonetizationPlan(client, plan);
      return plan.newSubscription as SubscriptionRecord;
    });
  }

  /** Renews, cancels or ends a subscription (planSubscriptionChange, then planSubscriptionUpdate). */
  async changeSubscription(id: bigint, change: SubscriptionChange, now: Date): Promise<SubscriptionRecord> {
    return withTransaction(this.pool, async (client) => {
      const subscription = requireSubscription(await lockSubscription(client, id.toString()));
      const entitlements = await lockEntitlementsOfSubscription(client, subscription.id);
      const planned = planSubscriptionChange(subscription, change, now);
      const added = planned.swap?.added ?? [];
      const skus = await lockSkus(client, added);
      const plan = planSubscriptionUpdate({
        subscription,
        entitlements,
        planned,
        addedSkus: added.map((skuId) => skus.find((s) => s.id === skuId) ?? null),
        newIds: added.map(() => this.snowflakes()),
        held:
          added.length === 0
            ? []
            : await readHeldEntitlements(client, added, subscriptionOwner(entitlements)),
        now,
      });
      await applyMonetizationPlan(client, plan);
      return plan.changedSubscription as SubscriptionRecord;
    });
  }

  /** Sets the SKUs the subscription takes at renewal (planRenewalSkus). */
  async setRenewalSkus(id: bigint, renewalSkuIds: string[] | null): Promise<SubscriptionRecord> {
    return withTransaction(this.pool, async (client) => {
      const subscription = await lockSubscription(client, id.toString());
      const skus = renewalSkuIds === null ? [] : await readSkus(client, renewalSkuIds);
      const plan = planRenewalSkus(subscription, renewalSkuIds, skus);
      await applyMonetizationPlan(client, plan);
      return plan.changedSubscription as SubscriptionRecord;
    });
  }

  /**
   * The subscriptions holding the application's SKU `skuId` (404 / 10027 for another's),
   * of the user scopeListToCaller names, newest first (oldest first with `after` alone).
   */
  async listSubscriptions(
    applicationId: bigint,
    skuId: bigint,
    query: SubscriptionQuery,
    userId: bigint | null,
  ): Promise<SubscriptionRecord[]> {
    await this.getOwnSku(applicationId, skuId);
    const scope = scopeListToCaller(query.userId, userId?.toString() ?? null);
    if (scope === null) return [];
    return selectSubscriptions(this.pool, applicationId.toString(), skuId.toString(), scope.userId, query);
  }

  /** One subscription holding the application's SKU (of `userId` when set); 10027 for the SKU, 404 otherwise. */
  async getSubscription(
    applicationId: bigint,
    skuId: bigint,
    id: bigint,
    userId: bigint | null,
  ): Promise<SubscriptionRecord> {
    await this.getOwnSku(applicationId, skuId);
    const { rows } = await this.pool.query<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM "oauth"."subscription" s WHERE s.id = $1`,
      [id.toString()],
    );
    const found = rows[0] ? toSubscription(rows[0]) : null;
    return requireVisibleSubscription(found, skuId.toString(), userId?.toString() ?? null);
  }

  /** The application's SKU; 404 / 10027 for an unknown one or another application's. */
  private async getOwnSku(applicationId: bigint, skuId: bigint): Promise<SkuRecord> {
    const [sku] = await readSkus(this.pool, [skuId.toString()]);
    return requireOwnSku(sku ?? null, applicationId.toString());
  }

  /** A change of one visible entitlement (requireVisibleEntitlement), its row locked. */
  private async changeEntitlement(
    applicationId: bigint,
    id: bigint,
    userId: bigint | null,
    decide: (client: PoolClient, entitlement: EntitlementRecord) => Promise<MonetizationPlan>,
  ): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const entitlement = requireVisibleEntitlement(
        await lockEntitlement(client, id.toString()),
        applicationId.toString(),
        userId?.toString() ?? null,
      );
      await applyMonetizationPlan(client, await decide(client, entitlement));
    });
  }
}
