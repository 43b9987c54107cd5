import type { Request } from 'express';
import type { DispatcherClient } from '../clients/dispatcher-client';

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
  dispatcher: DispatcherClient,
  applicationId: string,
  req: Request,
): Promise<void> {
  const { interactions_endpoint_url: interactionsUrl, event_webhooks_url: eventsUrl } = endpointUrlsOf(req);
  // Absent, null (removal) or a type error the owning service reports: nothing to verify.
  if (typeof interactionsUrl === 'string' && interactionsUrl !== '') {
    await dispatcher.verifyInteractionsEndpoint(applicationId, interactionsUrl);
  }
  if (typeof eventsUrl === 'string' && eventsUrl !== '') {
    await dispatcher.verifyEventWebhooksEndpoint(applicationId, eventsUrl);
  }
}
