import type { oauth } from '@acs/protos';
import { callPeer } from '@acs/service-kit';

/** Who asks: the application, and for a Bearer token its user ('' for a bot), to which answers are limited. */
export interface MonetizationCaller {
  applicationId: string;
  userId: string;
}

/** How the admin's payment simulation changes a subscription. */
export type SubscriptionChange = 'renew' | 'cancel' | 'end';

const WIRE_CHANGES: Record<SubscriptionChange, oauth.SubscriptionChange> = {
  renew: 'SUBSCRIPTION_CHANGE_RENEW',
  cancel: 'SUBSCRIPTION_CHANGE_CANCEL',
  end: 'SUBSCRIPTION_CHANGE_END',
};

/**
 * What api-gateway asks oauth about SKUs, entitlements and subscriptions (oauth owns
 * them). Objects come back as the API's JSON text, passed on as is; query strings go as
 * sent, for oauth to read.
 */
export interface MonetizationClient {
  listSkus(applicationId: string): Promise<string>;
  listEntitlements(caller: MonetizationCaller, query: Record<string, string>): Promise<string>;
  getEntitlement(caller: MonetizationCaller, entitlementId: string): Promise<string>;
  consumeEntitlement(caller: MonetizationCaller, entitlementId: string): Promise<void>;
  createTestEntitlement(applicationId: string, bodyJson: string): Promise<string>;
  deleteTestEntitlement(caller: MonetizationCaller, entitlementId: string): Promise<void>;
  listSkuSubscriptions(
    caller: MonetizationCaller,
    skuId: string,
    query: Record<string, string>,
  ): Promise<string>;
  getSkuSubscription(caller: MonetizationCaller, skuId: string, subscriptionId: string): Promise<string>;
  createSku(applicationId: string, bodyJson: string): Promise<string>;
  purchaseSku(bodyJson: string): Promise<string>;
  refundEntitlement(entitlementId: string): Promise<string>;
  createSubscription(bodyJson: string): Promise<string>;
  changeSubscription(subscriptionId: string, change: SubscriptionChange): Promise<string>;
  setRenewalSkus(subscriptionId: string, bodyJson: string): Promise<string>;
}

/** The MonetizationClient over oauth's gRPC client. */
export function createMonetizationClient(client: oauth.OAuthServiceClient): MonetizationClient {
  const of = (caller: MonetizationCaller) => ({
    application_id: caller.applicationId,
    user_id: caller.userId,
  });
  return {
    async listSkus(applicationId) {
      return (await callPeer(client, client.ListSkus, { application_id: applicationId })).skus_json;
    },
    async listEntitlements(caller, query) {
      return (await callPeer(client, client.ListEntitlements, { ...of(caller), query })).entitlements_json;
    },
    async getEntitlement(caller, entitlementId) {
      const request = { ...of(caller), entitlement_id: entitlementId };
      return (await callPeer(client, client.GetEntitlement, request)).entitlement_json;
    },
    async consumeEntitlement(caller, entitlementId) {
      await callPeer(client, client.ConsumeEntitlement, { ...of(caller), entitlement_id: entitlementId });
    },
    async createTestEntitlement(applicationId, bodyJson) {
      const request = { application_id: applicationId, body_json: bodyJson };
      return (await callPeer(client, client.CreateTestEntitlement, request)).entitlement_json;
    },
    async deleteTestEntitlement(caller, entitlementId) {
      await callPeer(client, client.DeleteTestEntitlement, { ...of(caller), entitlement_id: entitlementId });
    },
    async listSkuSubscriptions(caller, skuId, query) {
      const request = { ...of(caller), sku_id: skuId, query };
      return (await callPeer(client, client.ListSkuSubscriptions, request)).subscriptions_json;
    },
    async getSkuSubscription(caller, skuId, subscriptionId) {
      const request = { ...of(caller), sku_id: skuId, subscription_id: subscriptionId };
      return (await callPeer(client, client.GetSkuSubscription, request)).subscription_json;
    },
    async createSku(applicationId, bodyJson) {
      const request = { application_id: applicationId, body_json: bodyJson };
      return (await callPeer(client, client.CreateSku, request)).sku_json;
    },
    async purchaseSku(bodyJson) {
      return (await callPeer(client, client.PurchaseSku, { body_json: bodyJson })).entitlement_json;
    },
    async refundEntitlement(entitlementId) {
      const request = { entitlement_id: entitlementId };
      return (await callPeer(client, client.RefundEntitlement, request)).entitlement_json;
    },
    async createSubscription(bodyJson) {
      return (await callPeer(client, client.CreateSubscription, { body_json: bodyJson })).subscription_json;
    },
    async changeSubscription(subscriptionId, change) {
      const request = { subscription_id: subscriptionId, change: WIRE_CHANGES[change], body_json: '' };
      return (await callPeer(client, client.ChangeSubscription, request)).subscription_json;
    },
    async setRenewalSkus(subscriptionId, bodyJson) {
      const request = {
        subscription_id: subscriptionId,
        change: 'SUBSCRIPTION_CHANGE_RENEWAL_SKUS' as const,
        body_json: bodyJson,
      };
      return (await callPeer(client, client.ChangeSubscription, request)).subscription_json;
    },
  };
}
