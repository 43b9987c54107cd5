import { fieldError } from '@acs/service-kit';
import type { Directory } from '../clients/directory';
import { signatureTimestamp, signWebhook } from '../domain/sign-webhook';
import { pingWebhookBody } from '../domain/webhook-body';
import type { WebhookPoster } from './post-webhook';

/** Inner error code of a refused event webhook URL. */
const URL_REFUSED = 'EVENT_WEBHOOKS_URL_INVALID';

/**
 * Checks an event webhook URL the way Discord does before saving it: a PING signed with
 * the application's key must be answered 204, and a PING with a wrong signature must be
 * refused (anything but 2xx). Throws 400 / 50035 on `event_webhooks_url` saying why.
 */
export async function verifyEndpoint(
  directory: Directory,
  poster: WebhookPoster,
  applicationId: string,
  url: string,
): Promise<void> {
  const settings = await directory.settings(applicationId);
  const body = pingWebhookBody(applicationId);
  const refuse = (why: string) => fieldError('event_webhooks_url', URL_REFUSED, why);

  const timestamp = signatureTimestamp(Date.now());
  const valid = await poster.post(url, body, {
    'x-signature-ed25519': signWebhook(settings.signingKeyPem, timestamp, body),
    'x-signature-timestamp': timestamp,
  });
  if (valid.kind === 'refused') throw refuse(`The URL cannot be used: ${valid.reason}.`);
  if (valid.kind === 'failed') throw refuse(`The URL did not answer the PING: ${valid.reason}.`);
  if (valid.status !== 204)
    throw refuse(`The URL answered the PING with ${valid.status}; it must answer 204.`);

  // A signature over other bytes: a receiver that checks signatures must refuse it.
  const forged = signWebhook(settings.signingKeyPem, timestamp, `${body} `);
  const invalid = await poster.post(url, body, {
    'x-signature-ed25519': forged,
    'x-signature-timestamp': timestamp,
  });
  if (invalid.kind === 'answered' && invalid.status >= 200 && invalid.status < 300) {
    throw refuse(
      `The URL accepted a PING with an invalid signature (answered ${invalid.status}); it must verify X-Signature-Ed25519 and answer 401.`,
    );
  }
}
