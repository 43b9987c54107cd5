import { InvalidFormBodyError } from '@acs/discord-errors';
import { snowflakeTimestamp } from '@acs/snowflake';
import {
  FormErrors,
  addRequired,
  getField,
  isAbsent,
  readList,
  readModel,
  readSnowflake,
} from '@acs/validation';
import { MessageErrorCode as ErrorCode } from '../messages/message-error-codes';
import { BULK_DELETE_MAX_AGE_MS, MAX_BULK_DELETE, MIN_BULK_DELETE } from '../messages/message-limits';
import { BulkDeleteCountError, BulkDeleteTooOldError } from './channel-message-errors';

/**
 * Reads Bulk Delete Messages' body `{messages: [ids]}` (D:resources/message.mdx §Bulk Delete
 * Messages): every id a snowflake and named once (400 / 50035 at `messages.<i>`), 2 to 100
 * of them (400 / 50016; unknown ids count), none older than 14 days by its id's time, known
 * or not (400 / 50034). The ids, in the body's order.
 */
export function readBulkDelete(raw: unknown, now: Date): string[] {
  const errors = new FormErrors();
  const model = readModel(raw, errors, []);
  const rawIds = model ? getField(model, 'messages') : undefined;
  if (model && isAbsent(rawIds)) addRequired(errors, ['messages']);
  const list = model && !isAbsent(rawIds) ? readList(rawIds, errors, ['messages']) : undefined;
  if (!list) throw new InvalidFormBodyError(errors.toJSON());
  if (list.length < MIN_BULK_DELETE || list.length > MAX_BULK_DELETE) throw new BulkDeleteCountError();
  const ids: string[] = [];
  list.forEach((item, index) => {
    const id = readSnowflake(item, errors, ['messages', index]);
    if (id === undefined) return;
    if (ids.includes(id)) {
      errors.add(
        ['messages', index],
        ErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE,
        'The set already contains this value',
      );
      return;
    }
    ids.push(id);
  });
  errors.throwIfAny();
  if (ids.some((id) => now.getTime() - snowflakeTimestamp(id) > BULK_DELETE_MAX_AGE_MS)) {
    throw new BulkDeleteTooOldError();
  }
  return ids;
}
