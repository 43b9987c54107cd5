import type { PoolClient } from 'pg';
import { createEvent, writeOutboxRows, type OutboxRow } from '@acs/events';
import type { MonetizationEvent, MonetizationPlan } from '../domain/monetization/monetization-plan';
import type { SubscriptionRecord } from '../domain/monetization/monetization-records';
import { renderEntitlement, renderSubscription } from '../domain/monetization/render-monetization';

/** The schema of this service's tables and outbox. */
const SCHEMA = 'oauth';

/** `renewal_sku_ids` as stored: a JSON list, or SQL NULL. */
function renewalSkusOf(subscription: SubscriptionRecord): string | null {
  return subscription.renewalSkuIds === null ? null : JSON.stringify(subscription.renewalSkuIds);
}

/** The outbox row of a planned event (`oauth.<type>` of the catalog). */
function outboxRowOf(event: MonetizationEvent): OutboxRow {
  if ('entitlement' in event) {
    return createEvent(`oauth.${event.type}`, {
      application_id: event.entitlement.applicationId,
      entitlement: renderEntitlement(event.entitlement),
    });
  }
  return createEvent(`oauth.${event.type}`, {
    application_id: event.subscription.applicationId,
    subscription: renderSubscription(event.subscription),
  });
}

/**
 * Writes `plan` on the connection of the transaction that read its facts: SKUs, the new
 * subscription before the entitlements that reference it, the changed rows, then the
 * events to the outbox in the plan's order (writeOutboxRows keeps it).
 */
export async function applyMonetizationPlan(client: PoolClient, plan: MonetizationPlan): Promise<void> {
  for (const sku of plan.newSkus) {
    await client.query(
      `INSERT INTO "oauth"."sku" (id, application_id, type, name, slug, flags) VALUES ($1, $2, $3, $4, $5, $6)`,
      [sku.id, sku.applicationId, sku.type, sku.name, sku.slug, sku.flags],
    );
  }
  const started = plan.newSubscription;
  if (started) {
    await client.query(
      `INSERT INTO "oauth"."subscription" (id, application_id, user_id, sku_ids, renewal_sku_ids, status,
         current_period_start, current_period_end, canceled_at)
       VALUES ($1, $2, $3, $4::bigint[], $5::jsonb, $6, $7, $8, $9)`,
      [
        started.id,
        started.applicationId,
        started.userId,
        started.skuIds,
        renewalSkusOf(started),
        started.status,
        started.currentPeriodStart,
        started.currentPeriodEnd,
        started.canceledAt,
      ],
    );
  }
  const changed = plan.changedSubscription;
  if (changed) {
    await client.query(
      `UPDATE "oauth"."subscription"
          SET sku_ids = $2::bigint[], renewal_sku_ids = $3::jsonb, status = $4, current_period_start = $5,
              current_period_end = $6, canceled_at = $7
        WHERE id = $1`,
      [
        changed.id,
        changed.skuIds,
        renewalSkusOf(changed),
        changed.status,
        changed.currentPeriodStart,
        changed.currentPeriodEnd,
        changed.canceledAt,
      ],
    );
  }
  for (const e of plan.newEntitlements) {
    await client.query(
      `INSERT INTO "oauth"."entitlement" (id, application_id, sku_id, user_id, guild_id, type, deleted, consumed,
         starts_at, ends_at, subscription_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        e.id,
        e.applicationId,
        e.skuId,
        e.userId,
        e.guildId,
        e.type,
        e.deleted,
        e.consumed,
        e.startsAt,
        e.endsAt,
        e.subscriptionId,
      ],
    );
  }
  for (const e of plan.changedEntitlements) {
    await client.query(
      `UPDATE "oauth"."entitlement" SET deleted = $2, consumed = $3, ends_at = $4 WHERE id = $1`,
      [e.id, e.deleted, e.consumed, e.endsAt],
    );
  }
  await writeOutboxRows(client, SCHEMA, plan.events.map(outboxRowOf));
}
