import type { Request } from 'express';
import type { dispatcher as dispatcherTypes } from '@acs/protos';
import { call } from '../clients/backend-clients';

/** The endpoint URLs an application body sets (as sent: the owning service checks their types). */
export function endpointUrlsOf(req: Request): {
  interactions_endpoint_url?: unknown;
  event_webhooks_url?: unknown;
} {
  const body = req.body as Record<string, unknown> | undefined;
  return {
    interactions_endpoint_url: body?.interactions_endpoint_url,
    event_webhooks_url: body?.event_webhooks_url,
  };
}

/**
 * An interactions endpoint or event webhook URL is saved only after the dispatcher
 * verified it (a signed PING answered as Discord expects, a wrongly signed one refused
 * with 401); 400 saying why otherwise. The admin PATCH and a bot's PATCH of its own
 * application both go through it before oauth saves the body.
 */
export async function verifyEndpointUrls(
  dispatcher: dispatcherTypes.DispatcherServiceClient,
  applicationId: string,
  req: Request,
): Promise<void> {
  const { interactions_endpoint_url: interactionsUrl, event_webhooks_url: eventsUrl } = endpointUrlsOf(req);
  // Absent, null (removal) or a type error the owning service reports: nothing to verify.
  if (typeof interactionsUrl === 'string' && interactionsUrl !== '') {
    await call(dispatcher, dispatcher.VerifyInteractionsEndpoint, {
      application_id: applicationId,
      url: interactionsUrl,
    });
  }
  if (typeof eventsUrl === 'string' && eventsUrl !== '') {
    await call(dispatcher, dispatcher.VerifyWebhookEndpoint, {
      application_id: applicationId,
      url: eventsUrl,
    });
  }
}
