import { isJsonObject } from '@acs/discord-errors';
import { FormErrors, getField, isAbsent, readSnowflake } from '@acs/validation';

/** Others a group DM may hold besides its creator (permissions refuses more with 50035). */
const MAX_GROUP_DM_RECIPIENTS = 9;

/**
 * The user ids a `POST /users/@me/channels` body names, which must exist before permissions
 * opens the channel (users are oauth's; permissions knows none). Read the way permissions
 * reads the body (`validateOpenDmChannel`: `recipients` when present, else `recipient_id`;
 * each id through the same `readSnowflake`), so that every id it may accept is among
 * these; a body it will refuse may yield fewer or none, and then refuses with 50035 itself.
 */
export function dmRecipientCandidates(body: unknown): string[] {
  if (!isJsonObject(body)) return [];
  const recipients = getField(body, 'recipients');
  let values: unknown[];
  if (isAbsent(recipients)) values = [getField(body, 'recipient_id')];
  else if (Array.isArray(recipients) && recipients.length <= MAX_GROUP_DM_RECIPIENTS) values = recipients;
  else values = [];
  const ids = new Set<string>();
  for (const value of values) {
    const id = readSnowflake(value, new FormErrors(), []);
    if (id !== undefined) ids.add(id);
  }
  return [...ids];
}

/**
 * The DM or group DM channel `POST /users/@me/channels` answers (OAS
 * `PrivateChannelResponse` / `PrivateGroupChannelResponse`): permissions' channel with
 * `recipients`, the user objects of everyone in it but the caller, in permissions' order.
 */
export function renderDmChannel(
  channel: Record<string, unknown>,
  recipients: readonly Record<string, unknown>[],
): Record<string, unknown> {
  return { ...channel, recipients };
}
