import { BaseErrorCode as ErrorCode, InvalidFormBodyError, isJsonObject } from '@acs/discord-errors';
import {
  addChoicesError,
  checkItemCount,
  checkLength,
  checkRange,
  codePointLength,
  FormErrors,
  isAbsent,
  readBoolean,
  readDict,
  readInteger,
  readList,
  readModel,
  readSnowflake,
  readString,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import {
  CAN_LINK_LOBBY,
  MAX_ADDITIONAL_NAME_LENGTH,
  MAX_CONTENT_LENGTH,
  MAX_IDLE_TIMEOUT_SECONDS,
  MAX_MEMBERS_PER_BODY,
  MAX_SECRET_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  METADATA_MAX_ENTRY_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_MAX_TOTAL_LENGTH,
  MIN_IDLE_TIMEOUT_SECONDS,
  MODERATION_MAX_KEY_LENGTH,
  MODERATION_MAX_KEYS,
  MODERATION_MAX_VALUE_LENGTH,
  REQUIRE_APPLICATION_AUTHORIZATION,
} from './lobby-limits';

/** A metadata map: string → string, or null (none). */
export type Metadata = Record<string, string> | null;

/**
 * A member as a body gives it. `metadata` and `flags` given as absent or null reset to
 * their defaults (UD); `additionalName` undefined keeps the stored one, null clears it (D).
 */
export interface MemberInput {
  id: string;
  metadata: Metadata;
  flags: number;
  additionalName: string | null | undefined;
  /** Bulk only: remove the member instead. */
  remove: boolean;
}

/** POST /lobbies and PATCH /lobbies/{id}: each field undefined when not given. */
export interface LobbyInput {
  metadata?: Metadata;
  members?: MemberInput[];
  idleTimeoutSeconds?: number;
  flags?: number;
  overrideEventWebhooksUrl?: string | null;
}

/** PUT /lobbies. */
export interface JoinInput {
  secret: string;
  idleTimeoutSeconds?: number;
  lobbyMetadata?: Metadata;
  memberMetadata?: Metadata;
}

/** POST /lobbies/{id}/messages. */
export interface MessageInput {
  content: string;
  metadata: Metadata;
}

/** Reads a body that must be an object; the errors of the whole body are thrown at once. */
function readObjectBody<T>(body: unknown, read: (object: JsonObject, errors: FormErrors) => T): T {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  errors.throwIfAny();
  const result = read(object as JsonObject, errors);
  errors.throwIfAny();
  return result;
}

/** A string → string map within limits: key count, each key and value, total length. */
export function readMetadata(
  value: unknown,
  errors: FormErrors,
  path: ErrorPath,
  limits = {
    maxKeys: METADATA_MAX_KEYS,
    maxKey: METADATA_MAX_ENTRY_LENGTH,
    maxValue: METADATA_MAX_ENTRY_LENGTH,
    maxTotal: METADATA_MAX_TOTAL_LENGTH,
  },
): Metadata | undefined {
  if (value === null) return null;
  const dict = readDict(value, errors, path);
  if (!dict) return undefined;
  const before = errors.count;
  const keys = Object.keys(dict);
  if (keys.length > limits.maxKeys) {
    errors.add(path, ErrorCode.BASE_TYPE_MAX_LENGTH, `Must be ${limits.maxKeys} or fewer in length.`);
    return undefined;
  }
  const result: Record<string, string> = {};
  let total = 0;
  for (const key of keys) {
    const keyPath = [...path, key];
    if (key.includes('\u0000')) {
      readString(key, errors, keyPath);
      continue;
    }
    checkLength(key, 1, limits.maxKey, errors, keyPath);
    const text = readString(dict[key], errors, keyPath);
    if (text === undefined) continue;
    checkLength(text, 0, limits.maxValue, errors, keyPath);
    total += codePointLength(key) + codePointLength(text);
    result[key] = text;
  }
  if (errors.count === before && total > limits.maxTotal) {
    errors.add(path, ErrorCode.BASE_TYPE_MAX_LENGTH, `Must be ${limits.maxTotal} or fewer in length.`);
  }
  return errors.count === before ? result : undefined;
}

/** An integer bit set whose bits are all within `mask`: BASE_TYPE_CHOICES otherwise. */
function readFlags(value: unknown, mask: number, errors: FormErrors, path: ErrorPath): number | undefined {
  const flags = readInteger(value, errors, path);
  if (flags === undefined) return undefined;
  if (flags < 0 || (flags & ~mask) !== 0) {
    addChoicesError([mask], errors, path);
    return undefined;
  }
  return flags;
}

function readIdleTimeout(value: unknown, errors: FormErrors, path: ErrorPath): number | undefined {
  const seconds = readInteger(value, errors, path);
  if (seconds === undefined) return undefined;
  return checkRange(seconds, MIN_IDLE_TIMEOUT_SECONDS, MAX_IDLE_TIMEOUT_SECONDS, 'int', errors, path)
    ? seconds
    : undefined;
}

/** One member of a members list or a bulk body; `bulk` allows `remove_member`. */
function readMember(
  value: unknown,
  bulk: boolean,
  errors: FormErrors,
  path: ErrorPath,
): MemberInput | undefined {
  const object = readModel(value, errors, path);
  if (!object) return undefined;
  const before = errors.count;
  let id: string | undefined;
  if (isAbsent(object.id))
    errors.add([...path, 'id'], ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
  else id = readSnowflake(object.id, errors, [...path, 'id']);
  const metadata = isAbsent(object.metadata)
    ? null
    : readMetadata(object.metadata, errors, [...path, 'metadata']);
  const flags = isAbsent(object.flags)
    ? 0
    : readFlags(object.flags, CAN_LINK_LOBBY, errors, [...path, 'flags']);
  let additionalName: string | null | undefined;
  if (object.additional_name === null) additionalName = null;
  else if (object.additional_name !== undefined) {
    additionalName = readString(object.additional_name, errors, [...path, 'additional_name']);
    if (additionalName !== undefined) {
      checkLength(additionalName, 1, MAX_ADDITIONAL_NAME_LENGTH, errors, [...path, 'additional_name']);
    }
  }
  let remove = false;
  if (bulk && !isAbsent(object.remove_member)) {
    remove = readBoolean(object.remove_member, errors, [...path, 'remove_member']) ?? false;
  }
  if (errors.count !== before || id === undefined) return undefined;
  return { id, metadata: metadata ?? null, flags: flags ?? 0, additionalName, remove };
}

/** A members list of POST /lobbies or PATCH (≤ 25, each user once: the last one given wins). */
function readMembers(value: unknown, errors: FormErrors, path: ErrorPath): MemberInput[] | undefined {
  const list = readList(value, errors, path);
  if (!list || !checkItemCount(list, 0, MAX_MEMBERS_PER_BODY, errors, path)) return undefined;
  return dedupe(list.map((item, index) => readMember(item, false, errors, [...path, index])));
}

function dedupe(members: (MemberInput | undefined)[]): MemberInput[] {
  const byId = new Map<string, MemberInput>();
  for (const member of members) if (member) byId.set(member.id, member);
  return [...byId.values()];
}

/** POST /lobbies and PATCH /lobbies/{id} (the same fields; PATCH overwrites only those given). */
export function readLobbyBody(body: unknown): LobbyInput {
  return readObjectBody(body, (object, errors) => {
    const input: LobbyInput = {};
    if (object.metadata !== undefined) input.metadata = readMetadata(object.metadata, errors, ['metadata']);
    if (!isAbsent(object.members)) input.members = readMembers(object.members, errors, ['members']);
    if (!isAbsent(object.idle_timeout_seconds)) {
      input.idleTimeoutSeconds = readIdleTimeout(object.idle_timeout_seconds, errors, [
        'idle_timeout_seconds',
      ]);
    }
    if (!isAbsent(object.flags)) {
      input.flags = readFlags(object.flags, REQUIRE_APPLICATION_AUTHORIZATION, errors, ['flags']);
    }
    if (object.override_event_webhooks_url === null) input.overrideEventWebhooksUrl = null;
    else if (object.override_event_webhooks_url !== undefined) {
      input.overrideEventWebhooksUrl = readWebhookUrl(object.override_event_webhooks_url, errors);
    }
    return input;
  });
}

function readWebhookUrl(value: unknown, errors: FormErrors): string | undefined {
  const path = ['override_event_webhooks_url'];
  const text = readString(value, errors, path);
  if (text === undefined || !checkLength(text, 1, MAX_WEBHOOK_URL_LENGTH, errors, path)) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    errors.add(path, 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
    return undefined;
  }
  return text;
}

/** PUT /lobbies: `secret` (required, ≤ 250), `idle_timeout_seconds?`, `lobby_metadata?`, `member_metadata?`. */
export function readJoinBody(body: unknown): JoinInput {
  return readObjectBody(body, (object, errors) => {
    let secret: string | undefined;
    if (isAbsent(object.secret))
      errors.add(['secret'], ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
    else {
      secret = readString(object.secret, errors, ['secret']);
      if (secret !== undefined) checkLength(secret, 1, MAX_SECRET_LENGTH, errors, ['secret']);
    }
    const input: JoinInput = { secret: secret ?? '' };
    if (!isAbsent(object.idle_timeout_seconds)) {
      input.idleTimeoutSeconds = readIdleTimeout(object.idle_timeout_seconds, errors, [
        'idle_timeout_seconds',
      ]);
    }
    if (object.lobby_metadata !== undefined) {
      input.lobbyMetadata = readMetadata(object.lobby_metadata, errors, ['lobby_metadata']);
    }
    if (object.member_metadata !== undefined) {
      input.memberMetadata = readMetadata(object.member_metadata, errors, ['member_metadata']);
    }
    return input;
  });
}

/** PUT /lobbies/{id}/members/{user_id}: the member's fields (the id is the path's). */
export function readMemberBody(body: unknown, userId: string): MemberInput {
  return readObjectBody(body, (object, errors) => {
    const member = readMember({ ...object, id: userId, remove_member: undefined }, false, errors, []);
    return member as MemberInput;
  });
}

/** POST /lobbies/{id}/members/bulk: 1 to 25 members, each user once. */
export function readBulkBody(body: unknown): MemberInput[] {
  const errors = new FormErrors();
  const list = readList(body, errors, []);
  if (list && checkItemCount(list, 1, MAX_MEMBERS_PER_BODY, errors, [])) {
    const members = list.map((item, index) => readMember(item, true, errors, [index]));
    errors.throwIfAny();
    return dedupe(members);
  }
  throw errors.toError();
}

/** POST /lobbies/{id}/messages: `content` (1-4000), `metadata?`; the other message fields are ignored. */
export function readMessageBody(body: unknown): MessageInput {
  return readObjectBody(body, (object, errors) => {
    let content: string | undefined;
    if (isAbsent(object.content))
      errors.add(['content'], ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
    else {
      content = readString(object.content, errors, ['content']);
      if (content !== undefined) checkLength(content, 1, MAX_CONTENT_LENGTH, errors, ['content']);
      if (content !== undefined && content.trim() === '') {
        errors.add(['content'], ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
      }
    }
    const metadata = isAbsent(object.metadata) ? null : readMetadata(object.metadata, errors, ['metadata']);
    return { content: content ?? '', metadata: metadata ?? null };
  });
}

/** PUT …/moderation-metadata: a string map of ≤ 5 keys, key ≤ 1024, value ≤ 2000. */
export function readModerationBody(body: unknown): Record<string, string> {
  if (!isJsonObject(body)) {
    throw new InvalidFormBodyError({
      _errors: [
        { code: ErrorCode.DICT_TYPE_CONVERT, message: 'Only dictionaries may be used in a DictType' },
      ],
    });
  }
  const errors = new FormErrors();
  const metadata = readMetadata(body, errors, [], {
    maxKeys: MODERATION_MAX_KEYS,
    maxKey: MODERATION_MAX_KEY_LENGTH,
    maxValue: MODERATION_MAX_VALUE_LENGTH,
    maxTotal: Infinity,
  });
  errors.throwIfAny();
  return metadata ?? {};
}

/** PATCH …/channel-linking: `channel_id` to link, absent or null to unlink. */
export function readLinkBody(body: unknown): { channelId: string | null } {
  return readObjectBody(body, (object, errors) => {
    if (isAbsent(object.channel_id)) return { channelId: null };
    return { channelId: readSnowflake(object.channel_id, errors, ['channel_id']) ?? null };
  });
}

/** `?limit=` of GET messages: 1-200, 50 when absent. */
export function readHistoryLimit(text: string, max: number, fallback: number): number {
  if (text === '') return fallback;
  const errors = new FormErrors();
  const limit = /^-?\d{1,10}$/.test(text) ? Number(text) : undefined;
  if (limit === undefined) {
    errors.add(['limit'], ErrorCode.NUMBER_TYPE_COERCE, `Value "${text.slice(0, 100)}" is not int.`);
  } else checkRange(limit, 1, max, 'int', errors, ['limit']);
  errors.throwIfAny();
  return limit as number;
}
