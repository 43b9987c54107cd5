import { z } from 'zod';
import { snowflake } from './snowflake-schema';

const timestamp = z.string().nullable();

/**
 * An entitlement as the API shows it (D:resources/entitlement.mdx): the `data` of the
 * ENTITLEMENT_* dispatches and of the ENTITLEMENT_CREATE webhook event, sent as is.
 */
const entitlement = z.object({
  id: snowflake,
  sku_id: snowflake,
  application_id: snowflake,
  user_id: snowflake.optional(),
  guild_id: snowflake.optional(),
  type: z.number().int(),
  deleted: z.boolean(),
  consumed: z.boolean(),
  starts_at: timestamp.optional(),
  ends_at: timestamp.optional(),
  subscription_id: snowflake.optional(),
  promotion_id: z.null(),
  gift_code_flags: z.number().int(),
});

/** A subscription as the API shows it (D:resources/subscription.mdx): the `data` of SUBSCRIPTION_*. */
const subscription = z.object({
  id: snowflake,
  user_id: snowflake,
  sku_ids: z.array(snowflake),
  entitlement_ids: z.array(snowflake),
  renewal_sku_ids: z.array(snowflake).nullable(),
  current_period_start: z.string(),
  current_period_end: z.string(),
  /** 0 ACTIVE, 1 INACTIVE, 2 ENDING. */
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  canceled_at: timestamp,
});

/** An entitlement event: the application it belongs to and the entitlement after the change. */
const entitlementEvent = z.object({ application_id: snowflake, entitlement });

/** A subscription event: the application whose SKUs it holds and the subscription after the change. */
const subscriptionEvent = z.object({ application_id: snowflake, subscription });

/** A purchase, a subscription's start or a test grant (ENTITLEMENT_CREATE). */
export const entitlementCreated = entitlementEvent;
/** A subscription's entitlement ended: `ends_at` is set (ENTITLEMENT_UPDATE, only then since Oct 2024). */
export const entitlementUpdated = entitlementEvent;
/** A refund, or a test entitlement deleted (ENTITLEMENT_DELETE); `deleted` is true. */
export const entitlementDeleted = entitlementEvent;
/** A user subscribed (SUBSCRIPTION_CREATE). */
export const subscriptionCreated = subscriptionEvent;
/** A subscription renewed, was canceled, ended, refunded or changed its renewal SKUs (SUBSCRIPTION_UPDATE). */
export const subscriptionUpdated = subscriptionEvent;
