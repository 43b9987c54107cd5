import { InvalidRecipientsError } from '@acs/discord-errors';
import { FormErrors, isAbsent, readSnowflakeSet, type ErrorPath } from '@acs/validation';
import { MAX_GROUP_DM_RECIPIENTS } from '../limits';
import { ErrorCode } from '../validation/error-codes';
import { getField, readList, readModel, readRequired, readSnowflake } from '../validation/read-value';

/** What `POST /users/@me/channels` asks for: the DM with one user, or a new group DM with several. */
export type OpenDmInput = { kind: 'dm'; recipientId: string } | { kind: 'group'; recipientIds: string[] };

/** `recipients`: 1-9 distinct user ids (BASE_TYPE_BAD_LENGTH, 50035 at the index otherwise). */
function readRecipients(value: unknown, errors: FormErrors, path: ErrorPath): string[] | undefined {
  const list = readList(value, errors, path);
  if (!list) return undefined;
  if (list.length < 1 || list.length > MAX_GROUP_DM_RECIPIENTS) {
    errors.add(
      path,
      ErrorCode.BASE_TYPE_BAD_LENGTH,
      `Must be between 1 and ${MAX_GROUP_DM_RECIPIENTS} in length.`,
    );
    return undefined;
  }
  return readSnowflakeSet(list, errors, path);
}

/**
 * Validates the body of `POST /users/@me/channels` for `callerId`: `{recipient_id}` (the
 * documented bot form) or `{recipients: [ids]}` (the chat client's form, UD
 * resources/channel.mdx §Create Private Channel), `recipients` winning when both are given.
 * One recipient means the DM with that user, as the official client opens DMs with a
 * one-element list; two to nine mean a new group DM. 50035 for a bad shape; the caller
 * among the recipients is 400 / 50033 "Invalid Recipient(s)", as is a DM with oneself.
 * That the recipients exist is the caller's check (users belong to oauth).
 */
export function validateOpenDmChannel(body: unknown, callerId: string): OpenDmInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const recipients = getField(object, 'recipients');
  if (!isAbsent(recipients)) {
    const ids = readRecipients(recipients, errors, ['recipients']);
    if (!ids || errors.count > 0) throw errors.toError();
    if (ids.includes(callerId)) throw new InvalidRecipientsError();
    const [only] = ids;
    return ids.length === 1 && only !== undefined
      ? { kind: 'dm', recipientId: only }
      : { kind: 'group', recipientIds: ids };
  }
  const recipientId = readRequired(object, 'recipient_id', errors, readSnowflake);
  if (recipientId === undefined) throw errors.toError();
  if (recipientId === callerId) throw new InvalidRecipientsError();
  return { kind: 'dm', recipientId };
}
