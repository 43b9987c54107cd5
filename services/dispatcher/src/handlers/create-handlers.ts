import type { dispatcher } from '@acs/protos';
import type { Directory } from '../clients/directory';
import { MAX_IDENTIFIES_PER_DAY } from '../domain/gateway-codes';
import type { DeliveryStore } from '../store/delivery-store';
import { IDENTIFY_WINDOW_MS, type IdentifyStore } from '../store/identify-store';
import type { WebhookPoster } from '../webhooks/post-webhook';
import { verifyEventWebhooksEndpoint, verifyInteractionsEndpoint } from '../webhooks/verify-endpoint';

/** What the dispatcher's RPCs work with. */
export interface HandlerDeps {
  directory: Directory;
  poster: WebhookPoster;
  store: DeliveryStore;
  identifies: IdentifyStore;
  publicUrl: string;
}

/** The handlers of `acs.dispatcher.v1.DispatcherService`. */
export function createHandlers({ directory, poster, store, identifies, publicUrl }: HandlerDeps) {
  return {
    async GetGateway(request: dispatcher.GetGatewayRequest__Output): Promise<dispatcher.GetGatewayResponse> {
      if (!request.application_id) return { url: publicUrl };
      const { count, oldestAt } = await identifies.usage(request.application_id);
      return {
        url: publicUrl,
        shards: 1,
        session_start_limit: {
          total: MAX_IDENTIFIES_PER_DAY,
          remaining: Math.max(0, MAX_IDENTIFIES_PER_DAY - count),
          reset_after: oldestAt ? Math.max(0, oldestAt.getTime() + IDENTIFY_WINDOW_MS - Date.now()) : 0,
          max_concurrency: 1,
        },
      };
    },

    async VerifyWebhookEndpoint(
      request: dispatcher.VerifyWebhookEndpointRequest__Output,
    ): Promise<dispatcher.VerifyWebhookEndpointResponse> {
      await verifyEventWebhooksEndpoint(directory, poster, request.application_id, request.url);
      // A verified URL starts with a clean record, and the new URL is used at once.
      await store.enable(request.application_id);
      directory.forgetSettings(request.application_id);
      return {};
    },

    async VerifyInteractionsEndpoint(
      request: dispatcher.VerifyInteractionsEndpointRequest__Output,
    ): Promise<dispatcher.VerifyInteractionsEndpointResponse> {
      await verifyInteractionsEndpoint(directory, poster, request.application_id, request.url);
      return {};
    },
  };
}
