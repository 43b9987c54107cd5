// The query of Search Guild Messages (D:resources/message.mdx §Search Guild Messages; OAS op
// `guild_search`; facts C). Every parameter is read here, each malformed one is reported in
// one 400 / 50035 tree. Arrays are repeated keys (`?channel_id=1&channel_id=2`); booleans
// accept true/True/1 and false/False/0 (D:reference.mdx). The work is linear in the query's
// length, which api-gateway's request line already bounds.
import { BaseErrorCode as ErrorCode } from '@acs/discord-errors';
import { isSnowflake } from '@acs/snowflake';
import { FormErrors, hasNul } from '@acs/validation';

/** `has` values (OAS `HasOption`), each negatable with `-`. */
export const HAS_OPTIONS = [
  'image',
  'sound',
  'video',
  'file',
  'sticker',
  'embed',
  'link',
  'poll',
  'snapshot',
] as const;
export type HasOption = (typeof HAS_OPTIONS)[number];
/** `author_type` values (OAS `AuthorType`), each negatable. */
export const AUTHOR_TYPES = ['user', 'bot', 'webhook'] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];
/** `embed_type` values (OAS `SearchableEmbedType`). */
export const EMBED_TYPES = ['image', 'video', 'gif', 'sound', 'article'] as const;

/** A set of values to require (`include`) and to exclude (`exclude`, the `-value` form). */
export interface Negatable<T extends string> {
  include: T[];
  exclude: T[];
}

/** A read search. Empty lists filter nothing. */
export interface SearchQuery {
  limit: number;
  offset: number;
  /** Only messages with an id below / above. */
  maxId: string | undefined;
  minId: string | undefined;
  /** Words that must all be in the content; '' for no content filter. */
  content: string;
  slop: number;
  channelIds: string[];
  authorIds: string[];
  authorTypes: Negatable<AuthorType>;
  mentions: string[];
  mentionsRoleIds: string[];
  repliedToUserIds: string[];
  repliedToMessageIds: string[];
  mentionEveryone: boolean | undefined;
  pinned: boolean | undefined;
  includeNsfw: boolean;
  has: Negatable<HasOption>;
  embedTypes: string[];
  embedProviders: string[];
  linkHostnames: string[];
  attachmentExtensions: string[];
  attachmentFilenames: string[];
  sortBy: 'timestamp' | 'relevance';
  sortOrder: 'desc' | 'asc';
}

export const MAX_SEARCH_LIMIT = 25;
export const MAX_SEARCH_OFFSET = 9975;
export const MAX_SEARCH_CONTENT = 1024;
export const MAX_SEARCH_SLOP = 100;

/** Each array parameter's most items (facts C; OAS). */
const MAX_ITEMS = {
  channel_id: 500,
  author_id: 100,
  mentions: 100,
  mentions_role_id: 100,
  replied_to_user_id: 100,
  replied_to_message_id: 100,
  author_type: 6,
  has: 18,
  embed_type: 5,
  embed_provider: 100,
  link_hostname: 100,
  attachment_extension: 100,
  attachment_filename: 100,
} as const;

/** The parameters that take one value. */
type Scalar =
  | 'limit'
  | 'offset'
  | 'max_id'
  | 'min_id'
  | 'content'
  | 'slop'
  | 'mention_everyone'
  | 'pinned'
  | 'include_nsfw'
  | 'sort_by'
  | 'sort_order';

/**
 * Reads the query's `[key, value]` pairs (in order, keys repeated for arrays). Unknown keys
 * are ignored, as Discord ignores them; a scalar given twice, a value of the wrong type or
 * out of range, or an array past its size is 400 / 50035 at its key.
 */
export function readSearchQuery(pairs: readonly (readonly [string, string])[]): SearchQuery {
  const errors = new FormErrors();
  const values = new Map<string, string[]>();
  for (const [key, value] of pairs) {
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  const scalar = (key: Scalar): string | undefined => {
    const list = values.get(key);
    if (!list) return undefined;
    if (list.length > 1) errors.add([key], ErrorCode.BASE_TYPE_BAD_LENGTH, 'Must be a single value');
    const value = list[0] ?? '';
    if (hasNul(value)) {
      errors.add([key], ErrorCode.STRING_TYPE_NUL_CHARACTER, 'Must not contain NUL characters');
      return undefined;
    }
    return value;
  };
  const integer = (key: 'limit' | 'offset' | 'slop', min: number, max: number, fallback: number): number => {
    const raw = scalar(key);
    if (raw === undefined) return fallback;
    if (!/^\d{1,6}$/.test(raw)) {
      errors.add([key], ErrorCode.NUMBER_TYPE_COERCE, `Value "${clip(raw)}" is not int.`);
      return fallback;
    }
    const value = Number(raw);
    if (value < min)
      errors.add([key], ErrorCode.NUMBER_TYPE_MIN, `int value should be greater than or equal to ${min}.`);
    if (value > max)
      errors.add([key], ErrorCode.NUMBER_TYPE_MAX, `int value should be less than or equal to ${max}.`);
    return value;
  };
  const boolean = (key: 'mention_everyone' | 'pinned' | 'include_nsfw'): boolean | undefined => {
    const raw = scalar(key);
    if (raw === undefined) return undefined;
    if (['true', 'True', '1'].includes(raw)) return true;
    if (['false', 'False', '0'].includes(raw)) return false;
    errors.add([key], ErrorCode.BASE_TYPE_BOOLEAN, 'Must be either true or false.');
    return undefined;
  };
  const snowflake = (key: 'max_id' | 'min_id'): string | undefined => {
    const raw = scalar(key);
    if (raw === undefined) return undefined;
    if (!isSnowflake(raw)) {
      errors.add([key], ErrorCode.NUMBER_TYPE_COERCE, `Value "${clip(raw)}" is not snowflake.`);
      return undefined;
    }
    return raw;
  };
  const list = (key: keyof typeof MAX_ITEMS): string[] => {
    const items = values.get(key) ?? [];
    if (items.length > MAX_ITEMS[key]) {
      errors.add([key], ErrorCode.BASE_TYPE_MAX_LENGTH, `Must be ${MAX_ITEMS[key]} or fewer in length.`);
      return [];
    }
    return items;
  };
  const ids = (key: keyof typeof MAX_ITEMS): string[] => {
    const items = list(key);
    items.forEach((item, index) => {
      if (!isSnowflake(item))
        errors.add([key, index], ErrorCode.NUMBER_TYPE_COERCE, `Value "${clip(item)}" is not snowflake.`);
    });
    return [...new Set(items)];
  };
  const texts = (key: keyof typeof MAX_ITEMS, maxLength: number): string[] => {
    const items = list(key);
    items.forEach((item, index) => {
      if (item.length > maxLength || item.length === 0 || hasNul(item)) {
        errors.add(
          [key, index],
          ErrorCode.BASE_TYPE_BAD_LENGTH,
          `Must be between 1 and ${maxLength} in length.`,
        );
      }
    });
    return items;
  };
  function negatable<T extends string>(key: 'has' | 'author_type', choices: readonly T[]): Negatable<T> {
    const result: Negatable<T> = { include: [], exclude: [] };
    list(key).forEach((item, index) => {
      const negated = item.startsWith('-');
      const value = (negated ? item.slice(1) : item) as T;
      if (!choices.includes(value)) {
        errors.add(
          [key, index],
          ErrorCode.BASE_TYPE_CHOICES,
          `Value must be one of (${choices.map((c) => `'${c}'`).join(', ')}), optionally prefixed with '-'.`,
        );
        return;
      }
      (negated ? result.exclude : result.include).push(value);
    });
    return result;
  }
  const choice = <T extends string>(key: 'sort_by' | 'sort_order', choices: readonly T[], fallback: T): T => {
    const raw = scalar(key);
    if (raw === undefined) return fallback;
    if (!choices.includes(raw as T)) {
      errors.add(
        [key],
        ErrorCode.BASE_TYPE_CHOICES,
        `Value must be one of (${choices.map((c) => `'${c}'`).join(', ')}).`,
      );
      return fallback;
    }
    return raw as T;
  };

  const content = scalar('content') ?? '';
  if (content.length > MAX_SEARCH_CONTENT) {
    errors.add(
      ['content'],
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_SEARCH_CONTENT} or fewer in length.`,
    );
  }
  const embedTypes = list('embed_type');
  embedTypes.forEach((item, index) => {
    if (!(EMBED_TYPES as readonly string[]).includes(item)) {
      errors.add(
        ['embed_type', index],
        ErrorCode.BASE_TYPE_CHOICES,
        `Value must be one of (${EMBED_TYPES.map((c) => `'${c}'`).join(', ')}).`,
      );
    }
  });
  const query: SearchQuery = {
    limit: integer('limit', 1, MAX_SEARCH_LIMIT, MAX_SEARCH_LIMIT),
    offset: integer('offset', 0, MAX_SEARCH_OFFSET, 0),
    maxId: snowflake('max_id'),
    minId: snowflake('min_id'),
    content: content.trim(),
    slop: integer('slop', 0, MAX_SEARCH_SLOP, 2),
    channelIds: ids('channel_id'),
    authorIds: ids('author_id'),
    authorTypes: negatable('author_type', AUTHOR_TYPES),
    mentions: ids('mentions'),
    mentionsRoleIds: ids('mentions_role_id'),
    repliedToUserIds: ids('replied_to_user_id'),
    repliedToMessageIds: ids('replied_to_message_id'),
    mentionEveryone: boolean('mention_everyone'),
    pinned: boolean('pinned'),
    includeNsfw: boolean('include_nsfw') ?? false,
    has: negatable('has', HAS_OPTIONS),
    embedTypes,
    embedProviders: texts('embed_provider', 256),
    linkHostnames: texts('link_hostname', 256).map((host) => host.toLowerCase()),
    attachmentExtensions: texts('attachment_extension', 256).map((ext) =>
      ext.toLowerCase().replace(/^\./, ''),
    ),
    attachmentFilenames: texts('attachment_filename', 1024),
    sortBy: choice('sort_by', ['timestamp', 'relevance'] as const, 'timestamp'),
    sortOrder: choice('sort_order', ['desc', 'asc'] as const, 'desc'),
  };
  errors.throwIfAny();
  return query;
}

/** A value as an error message quotes it: at most 32 characters. */
function clip(value: string): string {
  return value.length > 32 ? `${value.slice(0, 32)}…` : value;
}
