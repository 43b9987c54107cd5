import { fieldError } from '@acs/discord-errors';

/** The endpoint URLs an application body sets, by field. */
export interface EndpointUrls {
  interactions_endpoint_url?: string;
  event_webhooks_url?: string;
}

/**
 * The endpoint URLs an application body sets to a URL: non-empty strings. Absent, null
 * (a removal) or of another type (which the owning service reports) is not set.
 */
export function endpointUrlsSetBy(body: unknown): EndpointUrls {
  const fields = (body ?? {}) as Record<string, unknown>;
  const urls: EndpointUrls = {};
  for (const field of ['interactions_endpoint_url', 'event_webhooks_url'] as const) {
    const url = fields[field];
    if (typeof url === 'string' && url !== '') urls[field] = url;
  }
  return urls;
}

/**
 * A body that creates an application sets no endpoint URL: the PING that verifies a URL
 * is signed with the application's key, which does not exist yet, so URLs are set with
 * PATCH once it does. 50035 on the first field that sets one.
 */
export function refuseEndpointUrlsAtCreation(body: unknown): void {
  for (const field of Object.keys(endpointUrlsSetBy(body))) {
    throw fieldError(
      field,
      field === 'event_webhooks_url'
        ? 'EVENT_WEBHOOKS_URL_INVALID'
        : 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
      `Set ${field} with PATCH after creating the application: the URL must verify a PING signed with its key (verify_key).`,
    );
  }
}
