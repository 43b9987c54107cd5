import { BaseErrorCode } from '@acs/discord-errors';
import {
  FormErrors,
  addChoicesError,
  addRequired,
  checkItemCount,
  checkLength,
  checkMaxItems,
  checkRange,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readList,
  readModel,
  readSnowflake,
  readString,
  type ErrorPath,
  type JsonObject,
  readSnowflakeSet,
} from '@acs/validation';
import { AutoModErrorCode } from './automod-error-codes';
import {
  MAX_ACTIONS,
  MAX_CUSTOM_MESSAGE_LENGTH,
  MAX_EXEMPT_CHANNELS,
  MAX_EXEMPT_ROLES,
  MAX_KEYWORD_ALLOW_LIST,
  MAX_KEYWORD_LENGTH,
  MAX_KEYWORDS,
  MAX_MENTION_TOTAL_LIMIT,
  MAX_PRESET_ALLOW_LIST,
  MAX_REGEX_LENGTH,
  MAX_REGEX_PATTERNS,
  MAX_RULE_NAME_LENGTH,
  MAX_TIMEOUT_SECONDS,
  MIN_ACTIONS,
} from './automod-limits';
import {
  ACTION_TYPES,
  ActionType,
  EVENT_TYPES,
  EventType,
  KEYWORD_PRESETS,
  TRIGGER_TYPES,
  TriggerType,
  type AutoModAction,
  type AutoModRule,
  type KeywordPreset,
  type TriggerMetadata,
} from './automod-rule';
import { compileRegex } from './compile-regex';

/** A rule's fields a body sets (what Create needs, or what an Update changes). */
export type RuleFields = Omit<AutoModRule, 'id' | 'guild_id' | 'creator_id'>;

/**
 * Reads Create Auto Moderation Rule's body (D:resources/auto-moderation.mdx §Create Auto
 * Moderation Rule), or an Update's (§Modify: every field optional, `trigger_type` not
 * changeable, so `existing` says which metadata applies), into the rule's next fields:
 * every type, length and count of the docs and the OAS, each refusal at its path (400 /
 * 50035). Cross-field rules: `event_type` 2 only for MEMBER_PROFILE and 1 for the others;
 * TIMEOUT only on KEYWORD and MENTION_SPAM (and MEMBER_PROFILE's own BLOCK_MEMBER_INTERACTION);
 * a duplicate keyword, pattern, role or channel is SET_TYPE_ALREADY_CONTAINS_VALUE; a regex
 * RE2 cannot compile, or too large a program, AUTO_MODERATION_INVALID_REGEX.
 */
export function readAutoModRule(raw: unknown, existing?: AutoModRule): RuleFields {
  const errors = new FormErrors();
  const body = readModel(raw, errors, []);
  if (!body) throw errors.toError();
  const field = (key: string) => getField(body, key);
  const creating = existing === undefined;

  let name = existing?.name;
  if (!isAbsent(field('name')) || creating) {
    if (isAbsent(field('name'))) addRequired(errors, ['name']);
    else {
      const text = readString(field('name'), errors, ['name']);
      if (text !== undefined && checkLength(text, 1, MAX_RULE_NAME_LENGTH, errors, ['name'])) name = text;
    }
  }

  let triggerType = existing?.trigger_type;
  if (creating) {
    const value = field('trigger_type');
    if (isAbsent(value)) addRequired(errors, ['trigger_type']);
    else triggerType = readEnum(value, TRIGGER_TYPES, errors, ['trigger_type']);
  }

  let eventType = existing?.event_type;
  if (!isAbsent(field('event_type')) || creating) {
    if (isAbsent(field('event_type'))) addRequired(errors, ['event_type']);
    else eventType = readEnum(field('event_type'), EVENT_TYPES, errors, ['event_type']);
  }

  let metadata = existing?.trigger_metadata;
  const rawMetadata = field('trigger_metadata');
  if (triggerType !== undefined && (creating || rawMetadata !== undefined)) {
    metadata = readTriggerMetadata(rawMetadata, triggerType, errors);
  }

  let actions = existing?.actions;
  if (!isAbsent(field('actions')) || creating) {
    if (isAbsent(field('actions'))) addRequired(errors, ['actions']);
    else actions = readActions(field('actions'), errors);
  }

  let enabled = existing?.enabled ?? false;
  if (!isAbsent(field('enabled'))) enabled = readBoolean(field('enabled'), errors, ['enabled']) ?? enabled;

  const exemptRoles = isAbsent(field('exempt_roles'))
    ? (existing?.exempt_roles ?? [])
    : readIdSet(field('exempt_roles'), MAX_EXEMPT_ROLES, errors, ['exempt_roles']);
  const exemptChannels = isAbsent(field('exempt_channels'))
    ? (existing?.exempt_channels ?? [])
    : readIdSet(field('exempt_channels'), MAX_EXEMPT_CHANNELS, errors, ['exempt_channels']);

  if (triggerType !== undefined && eventType !== undefined) {
    const wanted =
      triggerType === TriggerType.MEMBER_PROFILE ? EventType.MEMBER_UPDATE : EventType.MESSAGE_SEND;
    if (eventType !== wanted) {
      errors.add(
        ['event_type'],
        AutoModErrorCode.EVENT_NOT_ALLOWED,
        'Invalid event type for this trigger type',
      );
    }
  }
  if (triggerType !== undefined && actions) checkActionsFit(actions, triggerType, errors);
  errors.throwIfAny();
  return {
    name: name ?? '',
    event_type: eventType ?? EventType.MESSAGE_SEND,
    trigger_type: triggerType ?? TriggerType.KEYWORD,
    trigger_metadata: metadata ?? {},
    actions: actions ?? [],
    enabled,
    exempt_roles: exemptRoles ?? [],
    exempt_channels: exemptChannels ?? [],
  };
}

function readEnum<T extends number>(
  value: unknown,
  allowed: readonly T[],
  errors: FormErrors,
  path: ErrorPath,
): T | undefined {
  const number = readInteger(value, errors, path);
  if (number === undefined) return undefined;
  if (!(allowed as readonly number[]).includes(number)) {
    addChoicesError(allowed, errors, path);
    return undefined;
  }
  return number as T;
}

/** The metadata of `triggerType` (D §Trigger Metadata); absent or null is the type's empty metadata. */
function readTriggerMetadata(raw: unknown, triggerType: TriggerType, errors: FormErrors): TriggerMetadata {
  const path = ['trigger_metadata'];
  const model = isAbsent(raw) ? {} : readModel(raw, errors, path);
  if (!model) return {};
  const at = (key: string) => [...path, key];
  switch (triggerType) {
    case TriggerType.KEYWORD:
    case TriggerType.MEMBER_PROFILE:
      return {
        keyword_filter: readWords(
          getField(model, 'keyword_filter'),
          MAX_KEYWORDS,
          MAX_KEYWORD_LENGTH,
          errors,
          at('keyword_filter'),
        ),
        regex_patterns: readPatterns(getField(model, 'regex_patterns'), errors, at('regex_patterns')),
        allow_list: readWords(
          getField(model, 'allow_list'),
          MAX_KEYWORD_ALLOW_LIST,
          MAX_KEYWORD_LENGTH,
          errors,
          at('allow_list'),
        ),
      };
    case TriggerType.KEYWORD_PRESET:
      return {
        presets: readPresets(getField(model, 'presets'), errors, at('presets')),
        allow_list: readWords(
          getField(model, 'allow_list'),
          MAX_PRESET_ALLOW_LIST,
          MAX_KEYWORD_LENGTH,
          errors,
          at('allow_list'),
        ),
      };
    case TriggerType.MENTION_SPAM: {
      const limit = getField(model, 'mention_total_limit');
      const raid = getField(model, 'mention_raid_protection_enabled');
      let total = 0;
      if (!isAbsent(limit)) {
        const value = readInteger(limit, errors, at('mention_total_limit'));
        if (
          value !== undefined &&
          checkRange(value, 0, MAX_MENTION_TOTAL_LIMIT, 'int', errors, at('mention_total_limit'))
        )
          total = value;
      }
      const protection = isAbsent(raid)
        ? false
        : readBoolean(raid, errors, at('mention_raid_protection_enabled'));
      return { mention_total_limit: total, mention_raid_protection_enabled: protection ?? false };
    }
    case TriggerType.SPAM:
      return {};
  }
}

/** Keywords or allowed words: strings of 1-`maxLength`, at most `maxItems`, each once (case-insensitively). */
function readWords(
  raw: unknown,
  maxItems: number,
  maxLength: number,
  errors: FormErrors,
  path: ErrorPath,
  refuse: (text: string) => string | undefined = () => undefined,
): string[] {
  if (isAbsent(raw)) return [];
  const list = readList(raw, errors, path);
  if (!list || !checkMaxItems(list, maxItems, errors, path)) return [];
  const seen = new Set<string>();
  const words: string[] = [];
  list.forEach((item, index) => {
    const text = readString(item, errors, [...path, index]);
    if (text === undefined || !checkLength(text, 1, maxLength, errors, [...path, index])) return;
    const refusal = refuse(text);
    if (refusal !== undefined) {
      errors.add([...path, index], AutoModErrorCode.INVALID_REGEX, refusal);
      return;
    }
    const key = text.toLowerCase();
    if (seen.has(key)) {
      errors.add(
        [...path, index],
        BaseErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE,
        'The set already contains this value',
      );
      return;
    }
    seen.add(key);
    words.push(text);
  });
  return words;
}

/** Regex patterns: at most 10 of 1-260 characters, each compiling (compileRegex). */
function readPatterns(raw: unknown, errors: FormErrors, path: ErrorPath): string[] {
  return readWords(raw, MAX_REGEX_PATTERNS, MAX_REGEX_LENGTH, errors, path, (pattern) => {
    const compiled = compileRegex(pattern);
    return compiled.ok ? undefined : `Invalid regex pattern: ${compiled.reason.slice(0, 100)}`;
  });
}

function readPresets(raw: unknown, errors: FormErrors, path: ErrorPath): KeywordPreset[] {
  if (isAbsent(raw)) return [];
  const list = readList(raw, errors, path);
  if (!list || !checkMaxItems(list, KEYWORD_PRESETS.length, errors, path)) return [];
  const presets: KeywordPreset[] = [];
  list.forEach((item, index) => {
    const value = readEnum(item, KEYWORD_PRESETS, errors, [...path, index]);
    if (value === undefined) return;
    if (presets.includes(value)) {
      errors.add(
        [...path, index],
        BaseErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE,
        'The set already contains this value',
      );
      return;
    }
    presets.push(value);
  });
  return presets;
}

/** Snowflakes, at most `max`, each once. */
function readIdSet(raw: unknown, max: number, errors: FormErrors, path: ErrorPath): string[] | undefined {
  const list = readList(raw, errors, path);
  if (!list || !checkMaxItems(list, max, errors, path)) return undefined;
  return readSnowflakeSet(list, errors, path);
}

/** Actions (D §Auto Moderation Action Object): 1-5, each with its type's metadata. */
function readActions(raw: unknown, errors: FormErrors): AutoModAction[] | undefined {
  const path = ['actions'];
  const list = readList(raw, errors, path);
  if (!list || !checkItemCount(list, MIN_ACTIONS, MAX_ACTIONS, errors, path)) return undefined;
  const actions: AutoModAction[] = [];
  list.forEach((item, index) => {
    const action = readAction(item, errors, [...path, index]);
    if (action) actions.push(action);
  });
  return actions;
}

function readAction(raw: unknown, errors: FormErrors, path: ErrorPath): AutoModAction | undefined {
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const rawType = getField(model, 'type');
  if (isAbsent(rawType)) {
    addRequired(errors, [...path, 'type']);
    return undefined;
  }
  const type = readEnum(rawType, ACTION_TYPES, errors, [...path, 'type']);
  if (type === undefined) return undefined;
  const metaPath = [...path, 'metadata'];
  const rawMeta = getField(model, 'metadata');
  const meta: JsonObject | undefined = isAbsent(rawMeta) ? {} : readModel(rawMeta, errors, metaPath);
  if (!meta) return undefined;
  switch (type) {
    case ActionType.BLOCK_MESSAGE: {
      const custom = getField(meta, 'custom_message');
      if (isAbsent(custom)) return { type, metadata: {} };
      const text = readString(custom, errors, [...metaPath, 'custom_message']);
      if (
        text === undefined ||
        !checkLength(text, 0, MAX_CUSTOM_MESSAGE_LENGTH, errors, [...metaPath, 'custom_message'])
      )
        return undefined;
      return { type, metadata: { custom_message: text } };
    }
    case ActionType.SEND_ALERT_MESSAGE: {
      const channel = getField(meta, 'channel_id');
      if (isAbsent(channel)) {
        addRequired(errors, [...metaPath, 'channel_id']);
        return undefined;
      }
      const id = readSnowflake(channel, errors, [...metaPath, 'channel_id']);
      return id === undefined ? undefined : { type, metadata: { channel_id: id } };
    }
    case ActionType.TIMEOUT: {
      const duration = getField(meta, 'duration_seconds');
      if (isAbsent(duration)) {
        addRequired(errors, [...metaPath, 'duration_seconds']);
        return undefined;
      }
      const seconds = readInteger(duration, errors, [...metaPath, 'duration_seconds']);
      if (
        seconds === undefined ||
        !checkRange(seconds, 0, MAX_TIMEOUT_SECONDS, 'int', errors, [...metaPath, 'duration_seconds'])
      )
        return undefined;
      return { type, metadata: { duration_seconds: seconds } };
    }
    case ActionType.BLOCK_MEMBER_INTERACTION:
      return { type, metadata: {} };
  }
}

/**
 * Which actions a trigger type takes (D §Action Types): TIMEOUT only on KEYWORD and
 * MENTION_SPAM (and MEMBER_PROFILE); BLOCK_MEMBER_INTERACTION only on MEMBER_PROFILE, which
 * blocks no message.
 */
function checkActionsFit(
  actions: readonly AutoModAction[],
  triggerType: TriggerType,
  errors: FormErrors,
): void {
  actions.forEach((action, index) => {
    const fits =
      action.type === ActionType.TIMEOUT
        ? triggerType === TriggerType.KEYWORD ||
          triggerType === TriggerType.MENTION_SPAM ||
          triggerType === TriggerType.MEMBER_PROFILE
        : action.type === ActionType.BLOCK_MEMBER_INTERACTION
          ? triggerType === TriggerType.MEMBER_PROFILE
          : action.type === ActionType.BLOCK_MESSAGE
            ? triggerType !== TriggerType.MEMBER_PROFILE
            : true;
    if (!fits) {
      errors.add(
        ['actions', index, 'type'],
        AutoModErrorCode.ACTION_NOT_ALLOWED,
        'This action is not allowed for this trigger type',
      );
    }
  });
}
