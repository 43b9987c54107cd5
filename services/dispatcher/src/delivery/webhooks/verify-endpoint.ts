import { fieldError } from '@acs/discord-errors';
import { signatureTimestamp, signWebhook, type PostOutcome, type WebhookPoster } from '@acs/outbound';
import type { OAuthClient } from '../../clients/oauth-client';
import { isPong, pingInteractionBody } from '../../domain/interaction-body';
import { pingWebhookBody } from '../../domain/webhook-body';

/** What the two probes of an endpoint got: a correctly signed PING, then a forged one. */
interface ProbeAnswers {
  valid: PostOutcome & { kind: 'answered' };
  forged: PostOutcome;
}

/**
 * Sends a PING signed with the application's key, then the same PING with a signature
 * over other bytes (a receiver that checks signatures must refuse it). Throws the
 * field's error when the first never got an answer.
 */
async function probe(
  oauth: OAuthClient,
  poster: WebhookPoster,
  applicationId: string,
  url: string,
  body: string,
  refuse: (why: string) => Error,
  userAgent?: string,
): Promise<ProbeAnswers> {
  const settings = await oauth.settings(applicationId);
  const timestamp = signatureTimestamp(Date.now());
  const extra: Record<string, string> = userAgent ? { 'user-agent': userAgent } : {};
  const valid = await poster.post(url, body, {
    ...extra,
    'x-signature-ed25519': signWebhook(settings.signingKeyPem, timestamp, body),
    'x-signature-timestamp': timestamp,
  });
  if (valid.kind === 'refused') throw refuse(`The URL cannot be used: ${valid.reason}.`);
  if (valid.kind === 'failed') throw refuse(`The URL did not answer the PING: ${valid.reason}.`);
  const forged = await poster.post(url, body, {
    ...extra,
    'x-signature-ed25519': signWebhook(settings.signingKeyPem, timestamp, `${body} `),
    'x-signature-timestamp': timestamp,
  });
  return { valid, forged };
}

/**
 * Checks an event webhook URL the way Discord does before saving it: a PING signed with
 * the application's key must be answered 204, and a PING with a wrong signature must be
 * refused (anything but 2xx). Throws 400 / 50035 on `event_webhooks_url` saying why.
 */
export async function verifyEventWebhooksEndpoint(
  oauth: OAuthClient,
  poster: WebhookPoster,
  applicationId: string,
  url: string,
): Promise<void> {
  const refuse = (why: string) => fieldError('event_webhooks_url', 'EVENT_WEBHOOKS_URL_INVALID', why);
  const { valid, forged } = await probe(
    oauth,
    poster,
    applicationId,
    url,
    pingWebhookBody(applicationId),
    refuse,
  );
  if (valid.status !== 204)
    throw refuse(`The URL answered the PING with ${valid.status}; it must answer 204.`);
  if (forged.kind === 'answered' && forged.status >= 200 && forged.status < 300) {
    throw refuse(
      `The URL accepted a PING with an invalid signature (answered ${forged.status}); it must verify X-Signature-Ed25519 and answer 401.`,
    );
  }
}

/**
 * Checks an interactions endpoint URL the way Discord does before saving it: a PING
 * interaction signed with the application's key must be answered 200 with a PONG
 * (`{"type": 1}`), and the same PING with a wrong signature must be answered 401.
 * Throws 400 / 50035 on `interactions_endpoint_url` with Discord's error code, saying why.
 */
export async function verifyInteractionsEndpoint(
  oauth: OAuthClient,
  poster: WebhookPoster,
  applicationId: string,
  url: string,
): Promise<void> {
  const refuse = (why: string) =>
    fieldError(
      'interactions_endpoint_url',
      'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
      `The specified interactions endpoint url could not be verified. ${why}`,
    );
  const { valid, forged } = await probe(
    oauth,
    poster,
    applicationId,
    url,
    pingInteractionBody(applicationId),
    refuse,
    'Discord-Interactions/1.0 (+https://discord.com)',
  );
  if (valid.status !== 200) {
    throw refuse(`The URL answered the PING with ${valid.status}; it must answer 200 with {"type": 1}.`);
  }
  if (!isPong(valid.body)) {
    throw refuse('The URL answered the PING without a PONG; the body must be {"type": 1}.');
  }
  if (forged.kind !== 'answered' || forged.status !== 401) {
    const got = forged.kind === 'answered' ? `answered ${forged.status}` : forged.reason;
    throw refuse(
      `A PING with an invalid signature was not refused with 401 (${got}); the endpoint must verify X-Signature-Ed25519.`,
    );
  }
}
