import { randomBytes, randomInt } from 'node:crypto';

/** Interaction type of a PING (D:interactions/receiving-and-responding.mdx). */
export const INTERACTION_TYPE_PING = 1;
/** Interaction callback type of the PONG that answers it. */
export const INTERACTION_CALLBACK_PONG = 1;

/** Discord's epoch, the first millisecond of 2015. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/**
 * The JSON text of the PING interaction sent to an interactions endpoint before its URL
 * is saved, shaped as the real one: an id, the application, a token, `version` 1, and
 * the empty `entitlements` and `authorizing_integration_owners` a PING carries.
 */
export function pingInteractionBody(applicationId: string, now = Date.now()): string {
  // A snowflake of this millisecond; the PING is never stored, so random low bits suffice.
  const id = ((BigInt(now) - DISCORD_EPOCH_MS) << 22n) | BigInt(randomInt(0, 1 << 22));
  return JSON.stringify({
    app_permissions: '0',
    application_id: applicationId,
    authorizing_integration_owners: {},
    entitlements: [],
    id: id.toString(),
    token: `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`,
    type: INTERACTION_TYPE_PING,
    version: 1,
  });
}

/** Whether an endpoint's answer to a PING is a PONG: JSON whose `type` is 1. */
export function isPong(answer: string): boolean {
  try {
    const parsed: unknown = JSON.parse(answer);
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      (parsed as { type?: unknown }).type === INTERACTION_CALLBACK_PONG
    );
  } catch {
    return false;
  }
}
