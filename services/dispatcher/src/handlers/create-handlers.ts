import type { dispatcher } from '@acs/protos';
import type { Directory } from '../clients/directory';
import { MAX_IDENTIFIES_PER_DAY } from '../domain/gateway-codes';
import type { SessionRegistry } from '../gateway/session-registry';
import type { DeliveryStore } from '../store/delivery-store';
import type { WebhookPoster } from '../webhooks/post-webhook';
import { verifyEventWebhooksEndpoint, verifyInteractionsEndpoint } from '../webhooks/verify-endpoint';

/** What the dispatcher's RPCs work with. */
export interface HandlerDeps {
  directory: Directory;
  poster: WebhookPoster;
  store: DeliveryStore;
  registry: SessionRegistry;
  publicUrl: string;
}

/** The handlers of `acs.dispatcher.v1.DispatcherService`. */
export function createHandlers({ directory, poster, store, registry, publicUrl }: HandlerDeps) {
  return {
    async GetGateway(request: dispatcher.GetGatewayRequest__Output): Promise<dispatcher.GetGatewayResponse> {
      if (!request.application_id) return { url: publicUrl };
      const used = registry.identifiesToday(request.application_id);
      return {
        url: publicUrl,
        shards: 1,
        session_start_limit: {
          total: MAX_IDENTIFIES_PER_DAY,
          remaining: Math.max(0, MAX_IDENTIFIES_PER_DAY - used),
          reset_after: registry.identifyResetAfter(request.application_id),
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
