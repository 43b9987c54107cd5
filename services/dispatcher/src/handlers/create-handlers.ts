import type { dispatcher } from '@acs/protos';
import type { Directory } from '../clients/directory';
import { sessionStartLimit } from '../domain/identify-limits';
import type { DeliveryStore } from '../store/delivery-store';
import type { IdentifyStore } from '../store/identify-store';
import type { WebhookPoster } from '../delivery/webhooks/post-webhook';
import { verifyEventWebhooksEndpoint, verifyInteractionsEndpoint } from '../delivery/webhooks/verify-endpoint';

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
      const usage = await identifies.usage(request.application_id);
      return {
        url: publicUrl,
        shards: 1,
        // The limits the gateway enforces, from the same records.
        session_start_limit: sessionStartLimit(identifies.limits, usage),
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
