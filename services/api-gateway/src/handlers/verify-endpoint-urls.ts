import type { DispatcherClient } from '../clients/dispatcher-client';
import { endpointUrlsSetBy } from '../domain/endpoint-urls';

/**
 * An interactions endpoint or event webhook URL is saved only after the dispatcher
 * verified it (a signed PING answered as Discord expects, a wrongly signed one refused
 * with 401); 400 saying why otherwise. The admin PATCH and a bot's PATCH of its own
 * application both go through it before oauth saves the body.
 */
export async function verifyEndpointUrls(
  dispatcher: DispatcherClient,
  applicationId: string,
  body: unknown,
): Promise<void> {
  const urls = endpointUrlsSetBy(body);
  if (urls.interactions_endpoint_url !== undefined) {
    await dispatcher.verifyInteractionsEndpoint(applicationId, urls.interactions_endpoint_url);
  }
  if (urls.event_webhooks_url !== undefined) {
    await dispatcher.verifyEventWebhooksEndpoint(applicationId, urls.event_webhooks_url);
  }
}
