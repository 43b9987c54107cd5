import type { WebhookPoster } from '@acs/outbound';
import type { dispatcher } from '@acs/protos';
import type { OAuthClient } from '../clients/oauth-client';
import {
  verifyEventWebhooksEndpoint,
  verifyInteractionsEndpoint,
} from '../delivery/webhooks/verify-endpoint';
import type { DeliveryStore } from '../store/delivery-store';

/** What the endpoint RPCs work with. */
export interface EndpointHandlerDeps {
  oauth: OAuthClient;
  poster: WebhookPoster;
  deliveries: DeliveryStore;
}

/** The handlers of the RPCs that check an application's URLs before api-gateway saves them. */
export function createEndpointHandlers({ oauth, poster, deliveries }: EndpointHandlerDeps) {
  return {
    async VerifyWebhookEndpoint(
      request: dispatcher.VerifyWebhookEndpointRequest__Output,
    ): Promise<dispatcher.VerifyWebhookEndpointResponse> {
      await verifyEventWebhooksEndpoint(oauth, poster, request.application_id, request.url);
      // A verified URL starts with a clean record, and the new URL is used at once.
      await deliveries.enable(request.application_id);
      oauth.forgetSettings(request.application_id);
      return {};
    },

    async VerifyInteractionsEndpoint(
      request: dispatcher.VerifyInteractionsEndpointRequest__Output,
    ): Promise<dispatcher.VerifyInteractionsEndpointResponse> {
      await verifyInteractionsEndpoint(oauth, poster, request.application_id, request.url);
      return {};
    },
  };
}
