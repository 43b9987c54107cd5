// `allowed_mentions` (D:resources/message.mdx §Allowed Mentions Object; OAS
// `MessageAllowedMentionsRequest`). ACS resolves no mentions yet (a message's `mentions` is
// always []), so the object is checked and not kept: a body the real API refuses is
// refused here too, and one it takes is taken.
import {
  getField,
  isAbsent,
  readBoolean,
  readEnumSet,
  readList,
  readModel,
  checkMaxItems,
  type ErrorPath,
  type FormErrors,
  readSnowflakeSet,
} from '@acs/validation';
import { MessageErrorCode as ErrorCode } from './message-error-codes';
import { MAX_ALLOWED_MENTION_IDS } from './message-limits';

const MENTION_TYPES = ['users', 'roles', 'everyone'] as const;

/** Checks `allowed_mentions`, recording every error under `path`. */
export function checkAllowedMentions(raw: unknown, errors: FormErrors, path: ErrorPath): void {
  if (isAbsent(raw)) return;
  const model = readModel(raw, errors, path);
  if (!model) return;
  const rawParse = getField(model, 'parse');
  const parse = isAbsent(rawParse) ? [] : readEnumSet(rawParse, MENTION_TYPES, errors, [...path, 'parse']);
  const users = readIdSet(getField(model, 'users'), errors, [...path, 'users']);
  const roles = readIdSet(getField(model, 'roles'), errors, [...path, 'roles']);
  const rawReplied = getField(model, 'replied_user');
  if (!isAbsent(rawReplied)) readBoolean(rawReplied, errors, [...path, 'replied_user']);
  // D: "allowed_mentions: parse:["users"] and users: [ids] are mutually exclusive" (and roles alike).
  for (const [type, ids] of [
    ['users', users],
    ['roles', roles],
  ] as const) {
    if (parse?.includes(type) && ids !== undefined && ids.length > 0) {
      errors.add(
        path,
        ErrorCode.MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE,
        `parse:["${type}"] and ${type}: [ids] are mutually exclusive.`,
      );
    }
  }
}

// `users` and `roles`: at most 100 distinct snowflakes.
function readIdSet(raw: unknown, errors: FormErrors, path: ErrorPath): string[] | undefined {
  if (isAbsent(raw)) return undefined;
  const list = readList(raw, errors, path);
  if (!list || !checkMaxItems(list, MAX_ALLOWED_MENTION_IDS, errors, path)) return undefined;
  return readSnowflakeSet(list, errors, path);
}
