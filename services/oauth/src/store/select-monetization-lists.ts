import type { Pool } from 'pg';
import { StatementParameters } from '@acs/service-kit';
import type { EntitlementRecord, SubscriptionRecord } from '../domain/monetization/monetization-records';
import type { EntitlementQuery, SubscriptionQuery } from '../domain/monetization/read-monetization-queries';
import {
  ENTITLEMENT_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  toEntitlement,
  toSubscription,
  type EntitlementRow,
  type SubscriptionRow,
} from './monetization-rows';

/**
 * The id window and order of a page, added to `where`: ids below `before` and above
 * `after`; like messages, `after` alone pages forwards from the oldest, anything else is
 * newest first. Answers the ORDER BY.
 */
function pageOf(
  query: { before: string | null; after: string | null },
  column: string,
  where: string[],
  params: StatementParameters,
): string {
  if (query.before !== null) where.push(`${column} < ${params.add(query.before)}::bigint`);
  if (query.after !== null) where.push(`${column} > ${params.add(query.after)}::bigint`);
  const forwards = query.after !== null && query.before === null;
  return `ORDER BY ${column} ${forwards ? 'ASC' : 'DESC'}`;
}

/** The entitlements of the application matching the query, newest first (oldest first with `after` alone). */
export async function selectEntitlements(
  pool: Pool,
  applicationId: string,
  query: EntitlementQuery,
  now: Date,
): Promise<EntitlementRecord[]> {
  const params = new StatementParameters();
  const where = [`application_id = ${params.add(applicationId)}::bigint`];
  if (query.userId !== null) where.push(`user_id = ${params.add(query.userId)}::bigint`);
  if (query.guildId !== null) where.push(`guild_id = ${params.add(query.guildId)}::bigint`);
  if (query.skuIds !== null) where.push(`sku_id = ANY(${params.add(query.skuIds)}::bigint[])`);
  if (query.excludeDeleted) where.push('NOT deleted');
  if (query.excludeEnded) where.push(`(ends_at IS NULL OR ends_at > ${params.add(now)})`);
  const order = pageOf(query, 'id', where, params);
  const { rows } = await pool.query<EntitlementRow>(
    `SELECT ${ENTITLEMENT_COLUMNS} FROM "oauth"."entitlement"
      WHERE ${where.join(' AND ')} ${order} LIMIT ${params.add(query.limit)}`,
    params.values,
  );
  return rows.map(toEntitlement);
}

/**
 * The subscriptions of the application holding the SKU `skuId`, of `userId` (every user's
 * when null), newest first (oldest first with `after` alone).
 */
export async function selectSubscriptions(
  pool: Pool,
  applicationId: string,
  skuId: string,
  userId: string | null,
  query: SubscriptionQuery,
): Promise<SubscriptionRecord[]> {
  const params = new StatementParameters();
  const where = [
    `s.application_id = ${params.add(applicationId)}::bigint`,
    `${params.add(skuId)}::bigint = ANY(s.sku_ids)`,
  ];
  if (userId !== null) where.push(`s.user_id = ${params.add(userId)}::bigint`);
  const order = pageOf(query, 's.id', where, params);
  const { rows } = await pool.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM "oauth"."subscription" s
      WHERE ${where.join(' AND ')} ${order} LIMIT ${params.add(query.limit)}`,
    params.values,
  );
  return rows.map(toSubscription);
}
