import { fieldError, parseJsonObject } from '@acs/discord-errors';
import type { oauth } from '@acs/protos';
import { scopeListToCaller } from '../domain/monetization/monetization-access';
import { EntitlementType } from '../domain/monetization/monetization-limits';
import type { SubscriptionChange } from '../domain/monetization/plan-subscription-change';
import {
  readEntitlementQuery,
  readSubscriptionQuery,
} from '../domain/monetization/read-monetization-queries';
import { renderEntitlement, renderSku, renderSubscription } from '../domain/monetization/render-monetization';
import {
  validateGrantBody,
  validateNewSku,
  validateRenewalSkusBody,
  validateTestEntitlementBody,
} from '../domain/monetization/validate-monetization-bodies';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import type { HandlerDeps } from './handler-deps';

/** The admin simulation's subscription changes, by wire name. */
const CHANGES: Partial<Record<oauth.SubscriptionChange__Output, SubscriptionChange>> = {
  SUBSCRIPTION_CHANGE_RENEW: 'renew',
  SUBSCRIPTION_CHANGE_CANCEL: 'cancel',
  SUBSCRIPTION_CHANGE_END: 'end',
};

/** A Bearer caller's user id ('' for a bot) as the store's restriction. */
function callerUser(userId: string): bigint | null {
  return userId === '' ? null : parseSnowflakeParam('user_id', userId);
}

/** Handlers of the monetization RPCs: the public SKU, entitlement and subscription routes, and the admin's store. */
export function createMonetizationHandlers({
  monetization,
  snowflakes,
  now = () => new Date(),
}: Pick<HandlerDeps, 'monetization' | 'snowflakes' | 'now'>) {
  return {
    async ListSkus(request: oauth.ListSkusRequest__Output): Promise<oauth.ListSkusResponse> {
      const skus = await monetization.listSkus(parseSnowflakeParam('application_id', request.application_id));
      return { skus_json: JSON.stringify(skus.map(renderSku)) };
    },

    async ListEntitlements(
      request: oauth.ListEntitlementsRequest__Output,
    ): Promise<oauth.ListEntitlementsResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id);
      const query = readEntitlementQuery(request.query);
      const caller = callerUser(request.user_id);
      const scope = scopeListToCaller(query.userId, caller?.toString() ?? null);
      const entitlements =
        scope === null
          ? []
          : await monetization.listEntitlements(applicationId, { ...query, userId: scope.userId }, now());
      return { entitlements_json: JSON.stringify(entitlements.map((e) => renderEntitlement(e))) };
    },

    async GetEntitlement(
      request: oauth.GetEntitlementRequest__Output,
    ): Promise<oauth.GetEntitlementResponse> {
      const entitlement = await monetization.getEntitlement(
        parseSnowflakeParam('application_id', request.application_id),
        parseSnowflakeParam('entitlement_id', request.entitlement_id),
        callerUser(request.user_id),
      );
      return { entitlement_json: JSON.stringify(renderEntitlement(entitlement)) };
    },

    async ConsumeEntitlement(
      request: oauth.ConsumeEntitlementRequest__Output,
    ): Promise<oauth.ConsumeEntitlementResponse> {
      await monetization.consume(
        parseSnowflakeParam('application_id', request.application_id),
        parseSnowflakeParam('entitlement_id', request.entitlement_id),
        callerUser(request.user_id),
      );
      return {};
    },

    async CreateTestEntitlement(
      request: oauth.CreateTestEntitlementRequest__Output,
    ): Promise<oauth.CreateTestEntitlementResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id);
      const grant = validateTestEntitlementBody(parseJsonObject(request.body_json));
      const entitlement = await monetization.grant(
        applicationId,
        { id: snowflakes.next(), grant, type: EntitlementType.TEST_MODE_PURCHASE, startsAt: null },
        now(),
      );
      return { entitlement_json: JSON.stringify(renderEntitlement(entitlement, true)) };
    },

    async DeleteTestEntitlement(
      request: oauth.DeleteTestEntitlementRequest__Output,
    ): Promise<oauth.DeleteTestEntitlementResponse> {
      await monetization.deleteTestEntitlement(
        parseSnowflakeParam('application_id', request.application_id),
        parseSnowflakeParam('entitlement_id', request.entitlement_id),
        callerUser(request.user_id),
      );
      return {};
    },

    async ListSkuSubscriptions(
      request: oauth.ListSkuSubscriptionsRequest__Output,
    ): Promise<oauth.ListSkuSubscriptionsResponse> {
      const user = callerUser(request.user_id);
      const subscriptions = await monetization.listSubscriptions(
        parseSnowflakeParam('application_id', request.application_id),
        parseSnowflakeParam('sku_id', request.sku_id),
        readSubscriptionQuery(request.query, user !== null),
        user,
      );
      return { subscriptions_json: JSON.stringify(subscriptions.map(renderSubscription)) };
    },

    async GetSkuSubscription(
      request: oauth.GetSkuSubscriptionRequest__Output,
    ): Promise<oauth.GetSkuSubscriptionResponse> {
      const subscription = await monetization.getSubscription(
        parseSnowflakeParam('application_id', request.application_id),
        parseSnowflakeParam('sku_id', request.sku_id),
        parseSnowflakeParam('subscription_id', request.subscription_id),
        callerUser(request.user_id),
      );
      return { subscription_json: JSON.stringify(renderSubscription(subscription)) };
    },

    async CreateSku(request: oauth.CreateSkuRequest__Output): Promise<oauth.CreateSkuResponse> {
      const applicationId = parseSnowflakeParam('application_id', request.application_id);
      const sku = validateNewSku(parseJsonObject(request.body_json));
      // The group first, as Discord lists it before its subscription SKU.
      const groupId = snowflakes.next();
      const created = await monetization.createSku(applicationId, snowflakes.next(), groupId, sku);
      return { sku_json: JSON.stringify(renderSku(created)) };
    },

    async PurchaseSku(request: oauth.PurchaseSkuRequest__Output): Promise<oauth.PurchaseSkuResponse> {
      const grant = validateGrantBody(parseJsonObject(request.body_json), false);
      const time = now();
      const entitlement = await monetization.grant(
        null,
        { id: snowflakes.next(), grant, type: EntitlementType.PURCHASE, startsAt: time },
        time,
      );
      return { entitlement_json: JSON.stringify(renderEntitlement(entitlement)) };
    },

    async RefundEntitlement(
      request: oauth.RefundEntitlementRequest__Output,
    ): Promise<oauth.RefundEntitlementResponse> {
      const entitlement = await monetization.refund(
        parseSnowflakeParam('entitlement_id', request.entitlement_id),
      );
      return { entitlement_json: JSON.stringify(renderEntitlement(entitlement)) };
    },

    async CreateSubscription(
      request: oauth.CreateSubscriptionRequest__Output,
    ): Promise<oauth.CreateSubscriptionResponse> {
      const grant = validateGrantBody(parseJsonObject(request.body_json), true);
      const subscription = await monetization.createSubscription(
        { subscription: snowflakes.next(), entitlement: snowflakes.next() },
        grant,
        now(),
      );
      return { subscription_json: JSON.stringify(renderSubscription(subscription)) };
    },

    async ChangeSubscription(
      request: oauth.ChangeSubscriptionRequest__Output,
    ): Promise<oauth.ChangeSubscriptionResponse> {
      const id = parseSnowflakeParam('subscription_id', request.subscription_id);
      if (request.change === 'SUBSCRIPTION_CHANGE_RENEWAL_SKUS') {
        const renewalSkuIds = validateRenewalSkusBody(parseJsonObject(request.body_json));
        const subscription = await monetization.setRenewalSkus(id, renewalSkuIds);
        return { subscription_json: JSON.stringify(renderSubscription(subscription)) };
      }
      const change = CHANGES[request.change];
      if (!change)
        throw fieldError('change', 'BASE_TYPE_CHOICES', 'Value must be one of renew, cancel, end.');
      const subscription = await monetization.changeSubscription(id, change, now());
      return { subscription_json: JSON.stringify(renderSubscription(subscription)) };
    },
  };
}
