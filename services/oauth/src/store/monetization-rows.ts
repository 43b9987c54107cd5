import type {
  EntitlementRecord,
  SkuRecord,
  SubscriptionRecord,
} from '../domain/monetization/monetization-records';

// The monetization tables as plain SQL reads them: bigints as text (a JSON number or a JS
// number would lose a snowflake's low digits), timestamps as Dates.

/** The columns of a `sku` row (no alias). */
export const SKU_COLUMNS = `id::text AS id, application_id::text AS application_id, type, name, slug, flags`;

/** The columns of an `entitlement` row (no alias). */
export const ENTITLEMENT_COLUMNS = `id::text AS id, application_id::text AS application_id,
  sku_id::text AS sku_id, user_id::text AS user_id, guild_id::text AS guild_id, type, deleted,
  consumed, starts_at, ends_at, subscription_id::text AS subscription_id`;

/** The columns of a `subscription` row aliased `s`, with its entitlement ids, oldest first. */
export const SUBSCRIPTION_COLUMNS = `s.id::text AS id, s.application_id::text AS application_id,
  s.user_id::text AS user_id, s.sku_ids::text[] AS sku_ids, s.renewal_sku_ids, s.status,
  s.current_period_start, s.current_period_end, s.canceled_at,
  ARRAY(SELECT e.id::text FROM "oauth"."entitlement" e WHERE e.subscription_id = s.id ORDER BY e.id)
    AS entitlement_ids`;

/** A row of SKU_COLUMNS. */
export interface SkuRow {
  id: string;
  application_id: string;
  type: number;
  name: string;
  slug: string;
  flags: number;
}

/** A row of ENTITLEMENT_COLUMNS. */
export interface EntitlementRow {
  id: string;
  application_id: string;
  sku_id: string;
  user_id: string | null;
  guild_id: string | null;
  type: number;
  deleted: boolean;
  consumed: boolean;
  starts_at: Date | null;
  ends_at: Date | null;
  subscription_id: string | null;
}

/** A row of SUBSCRIPTION_COLUMNS. */
export interface SubscriptionRow {
  id: string;
  application_id: string;
  user_id: string;
  sku_ids: string[];
  renewal_sku_ids: unknown;
  status: number;
  current_period_start: Date;
  current_period_end: Date;
  canceled_at: Date | null;
  entitlement_ids: string[];
}

/** A SKU row as the domain holds it. */
export function toSku(row: SkuRow): SkuRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    type: row.type,
    name: row.name,
    slug: row.slug,
    flags: row.flags,
  };
}

/** An entitlement row as the domain holds it. */
export function toEntitlement(row: EntitlementRow): EntitlementRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    skuId: row.sku_id,
    userId: row.user_id,
    guildId: row.guild_id,
    type: row.type,
    deleted: row.deleted,
    consumed: row.consumed,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    subscriptionId: row.subscription_id,
  };
}

/** A subscription row as the domain holds it. */
export function toSubscription(row: SubscriptionRow): SubscriptionRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    userId: row.user_id,
    skuIds: row.sku_ids,
    entitlementIds: row.entitlement_ids,
    renewalSkuIds: Array.isArray(row.renewal_sku_ids) ? row.renewal_sku_ids.map(String) : null,
    status: row.status as SubscriptionRecord['status'],
    currentPeriodStart: row.current_period_start,
    currentPeriodEnd: row.current_period_end,
    canceledAt: row.canceled_at,
  };
}
