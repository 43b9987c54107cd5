import type { Pool, PoolClient } from 'pg';
import type { GrantedUser } from '../domain/monetization/plan-grant';
import type {
  EntitlementRecord,
  SkuRecord,
  SubscriptionRecord,
} from '../domain/monetization/monetization-records';
import type { EntitlementOwner } from '../domain/monetization/validate-monetization-bodies';
import {
  ENTITLEMENT_COLUMNS,
  SKU_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  toEntitlement,
  toSku,
  toSubscription,
  type EntitlementRow,
  type SkuRow,
  type SubscriptionRow,
} from './monetization-rows';

/** A pool (a read on its own) or a transaction's connection. */
type Queryable = Pool | PoolClient;

// The reads of the monetization transactions, on the transaction's connection. The rows a
// change writes are read FOR UPDATE, so that its plan holds until it commits.

/**
 * The SKUs, their rows locked in id order: grants of one SKU run one at a time, so that
 * 40074 holds under concurrent purchases. Unknown ids are left out.
 */
export async function lockSkus(client: PoolClient, ids: readonly string[]): Promise<SkuRecord[]> {
  const { rows } = await client.query<SkuRow>(
    `SELECT ${SKU_COLUMNS} FROM "oauth"."sku" WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows.map(toSku);
}

/** The SKUs (unknown ids left out), not locked. */
export async function readSkus(db: Queryable, ids: readonly string[]): Promise<SkuRecord[]> {
  const { rows } = await db.query<SkuRow>(
    `SELECT ${SKU_COLUMNS} FROM "oauth"."sku" WHERE id = ANY($1::bigint[]) ORDER BY id`,
    [ids],
  );
  return rows.map(toSku);
}

/** The entitlement, not locked; null when unknown. */
export async function readEntitlement(db: Queryable, id: string): Promise<EntitlementRecord | null> {
  const { rows } = await db.query<EntitlementRow>(
    `SELECT ${ENTITLEMENT_COLUMNS} FROM "oauth"."entitlement" WHERE id = $1`,
    [id],
  );
  return rows[0] ? toEntitlement(rows[0]) : null;
}

/** The SKU, its row locked (lockSkus); null when unknown. */
export async function lockSku(client: PoolClient, id: string): Promise<SkuRecord | null> {
  return (await lockSkus(client, [id]))[0] ?? null;
}

/** The entitlement, its row locked; null when unknown. */
export async function lockEntitlement(client: PoolClient, id: string): Promise<EntitlementRecord | null> {
  const { rows } = await client.query<EntitlementRow>(
    `SELECT ${ENTITLEMENT_COLUMNS} FROM "oauth"."entitlement" WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] ? toEntitlement(rows[0]) : null;
}

/** The subscription, its row locked; null when unknown. */
export async function lockSubscription(client: PoolClient, id: string): Promise<SubscriptionRecord | null> {
  const { rows } = await client.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM "oauth"."subscription" s WHERE s.id = $1 FOR UPDATE OF s`,
    [id],
  );
  return rows[0] ? toSubscription(rows[0]) : null;
}

/** Every entitlement of the subscription, oldest first, their rows locked. */
export async function lockEntitlementsOfSubscription(
  client: PoolClient,
  subscriptionId: string,
): Promise<EntitlementRecord[]> {
  const { rows } = await client.query<EntitlementRow>(
    `SELECT ${ENTITLEMENT_COLUMNS} FROM "oauth"."entitlement"
      WHERE subscription_id = $1 ORDER BY id FOR UPDATE`,
    [subscriptionId],
  );
  return rows.map(toEntitlement);
}

/** The user a grant names (null: it names none, or they are unknown), as planGrant checks them. */
export async function readGrantedUser(client: PoolClient, userId: string | null): Promise<GrantedUser> {
  if (userId === null) return null;
  const { rows } = await client.query<{ bot: boolean }>(`SELECT bot FROM "oauth"."user" WHERE id = $1`, [
    userId,
  ]);
  return rows[0] ?? null;
}

/**
 * The owner's entitlements to the SKUs that are neither deleted nor consumed: a guild's
 * (whoever bought them), or a user's own (not bought for a guild).
 */
export async function readHeldEntitlements(
  client: PoolClient,
  skuIds: readonly string[],
  owner: EntitlementOwner,
): Promise<EntitlementRecord[]> {
  const { rows } = await client.query<EntitlementRow>(
    `SELECT ${ENTITLEMENT_COLUMNS} FROM "oauth"."entitlement"
      WHERE sku_id = ANY($1::bigint[]) AND NOT deleted AND NOT consumed
        AND CASE WHEN $2::bigint IS NOT NULL THEN guild_id = $2::bigint
                 ELSE guild_id IS NULL AND user_id = $3::bigint END
      ORDER BY id`,
    [skuIds, owner.guildId, owner.userId],
  );
  return rows.map(toEntitlement);
}

/** The user's subscriptions holding the SKU. */
export async function readSubscriptionsOfUser(
  client: PoolClient,
  userId: string,
  skuId: string,
): Promise<SubscriptionRecord[]> {
  const { rows } = await client.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM "oauth"."subscription" s
      WHERE s.user_id = $1 AND $2::bigint = ANY(s.sku_ids)`,
    [userId, skuId],
  );
  return rows.map(toSubscription);
}
