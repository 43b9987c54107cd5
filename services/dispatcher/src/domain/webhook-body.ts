/** Webhook type of a PING (answered 204, used to verify an endpoint). */
export const WEBHOOK_TYPE_PING = 0;
/** Webhook type of an event. */
export const WEBHOOK_TYPE_EVENT = 1;

/** The JSON text POSTed for one event (D:events/webhook-events.mdx): the same bytes every attempt. */
export function eventWebhookBody(
  applicationId: string,
  type: string,
  timestamp: string,
  data: unknown,
): string {
  return JSON.stringify({
    version: 1,
    application_id: applicationId,
    type: WEBHOOK_TYPE_EVENT,
    event: { type, timestamp, data },
  });
}

/** The JSON text of a PING. */
export function pingWebhookBody(applicationId: string): string {
  return JSON.stringify({ version: 1, application_id: applicationId, type: WEBHOOK_TYPE_PING });
}
