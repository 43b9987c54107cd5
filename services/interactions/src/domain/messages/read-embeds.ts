// Embeds of a message body, checked as Discord checks a bot's or webhook's embeds
// (D:resources/message.mdx §Embed Object, §Embed Limits; OAS `RichEmbed`). Only the fields
// a bot may set are kept: `type` is always "rich", and `video` and `provider` are filled
// by Discord's unfurler, never by the sender, so they are ignored like unknown keys.
import {
  addRequired,
  checkLength,
  checkMaxItems,
  checkRange,
  codePointLength,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readList,
  readModel,
  readString,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';
import { formatTimestamp } from './format-timestamp';
import { MessageErrorCode as ErrorCode } from './message-error-codes';
import {
  MAX_EMBED_AUTHOR_NAME_LENGTH,
  MAX_EMBED_COLOR,
  MAX_EMBED_DESCRIPTION_LENGTH,
  MAX_EMBED_FIELD_NAME_LENGTH,
  MAX_EMBED_FIELD_VALUE_LENGTH,
  MAX_EMBED_FIELDS,
  MAX_EMBED_FOOTER_TEXT_LENGTH,
  MAX_EMBED_TITLE_LENGTH,
  MAX_EMBED_URL_LENGTH,
  MAX_EMBEDS,
  MAX_EMBEDS_TOTAL_LENGTH,
} from './message-limits';

/** An embed as a message object carries it. */
export interface Embed {
  /** 'rich' for what apps send; 'auto_moderation_message' for AutoMod's alerts (type 24). */
  type: 'rich' | 'auto_moderation_message';
  title?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  color?: number;
  fields?: EmbedField[];
  author?: { name: string; url?: string; icon_url?: string };
  footer?: { text: string; icon_url?: string };
  image?: { url: string };
  thumbnail?: { url: string };
}

/** One field of an embed; `inline` defaults to false as Discord answers it. */
export interface EmbedField {
  name: string;
  value: string;
  inline: boolean;
}

/** Where a URL may point: links are web pages, media may also name an uploaded file. */
type UrlKind = 'link' | 'media';

const LINK_SCHEMES = ['http', 'https'];
const MEDIA_SCHEMES = ['http', 'https', 'attachment'];

/**
 * `embeds`: at most 10 valid embeds whose texts hold at most 6000 characters together
 * (MAX_EMBED_SIZE_EXCEEDED at `embeds`, as the real API answers). Null reads as [].
 */
export function readEmbeds(raw: unknown, errors: FormErrors, path: ErrorPath): Embed[] | undefined {
  if (isAbsent(raw)) return [];
  const list = readList(raw, errors, path);
  if (!list || !checkMaxItems(list, MAX_EMBEDS, errors, path)) return undefined;
  const before = errors.count;
  const embeds = list.map((item, index) => readEmbed(item, errors, [...path, index]));
  if (errors.count !== before) return undefined;
  const valid = embeds as Embed[];
  if (valid.reduce((sum, embed) => sum + embedLength(embed), 0) > MAX_EMBEDS_TOTAL_LENGTH) {
    errors.add(
      path,
      ErrorCode.MAX_EMBED_SIZE_EXCEEDED,
      `Embed size exceeds maximum size of ${MAX_EMBEDS_TOTAL_LENGTH}`,
    );
    return undefined;
  }
  return valid;
}

/** The characters of an embed that count toward the 6000 limit (D §Embed Limits). */
export function embedLength(embed: Embed): number {
  let length = 0;
  const add = (text: string | undefined) => {
    if (text !== undefined) length += codePointLength(text);
  };
  add(embed.title);
  add(embed.description);
  for (const field of embed.fields ?? []) {
    add(field.name);
    add(field.value);
  }
  add(embed.footer?.text);
  add(embed.author?.name);
  return length;
}

function readEmbed(raw: unknown, errors: FormErrors, path: ErrorPath): Embed | undefined {
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const at = (key: string): ErrorPath => [...path, key];
  const embed: Embed = { type: 'rich' };
  const title = readOptionalText(model, 'title', MAX_EMBED_TITLE_LENGTH, errors, at('title'));
  if (title) embed.title = title;
  const description = readOptionalText(
    model,
    'description',
    MAX_EMBED_DESCRIPTION_LENGTH,
    errors,
    at('description'),
  );
  if (description) embed.description = description;
  const url = readOptionalUrl(getField(model, 'url'), 'link', errors, at('url'));
  if (url) embed.url = url;
  const timestamp = readTimestamp(getField(model, 'timestamp'), errors, at('timestamp'));
  if (timestamp) embed.timestamp = timestamp;
  const rawColor = getField(model, 'color');
  if (!isAbsent(rawColor)) {
    const color = readInteger(rawColor, errors, at('color'));
    if (color !== undefined && checkRange(color, 0, MAX_EMBED_COLOR, 'int', errors, at('color'))) {
      embed.color = color;
    }
  }
  const fields = readFields(getField(model, 'fields'), errors, at('fields'));
  if (fields && fields.length > 0) embed.fields = fields;
  const author = readAuthor(getField(model, 'author'), errors, at('author'));
  if (author) embed.author = author;
  const footer = readFooter(getField(model, 'footer'), errors, at('footer'));
  if (footer) embed.footer = footer;
  const image = readMedia(getField(model, 'image'), errors, at('image'));
  if (image) embed.image = image;
  const thumbnail = readMedia(getField(model, 'thumbnail'), errors, at('thumbnail'));
  if (thumbnail) embed.thumbnail = thumbnail;
  return embed;
}

function readFields(raw: unknown, errors: FormErrors, path: ErrorPath): EmbedField[] | undefined {
  if (isAbsent(raw)) return undefined;
  const list = readList(raw, errors, path);
  if (!list || !checkMaxItems(list, MAX_EMBED_FIELDS, errors, path)) return undefined;
  const fields: EmbedField[] = [];
  list.forEach((item, index) => {
    const fieldPath = [...path, index];
    const model = readModel(item, errors, fieldPath);
    if (!model) return;
    const name = readRequiredText(model, 'name', MAX_EMBED_FIELD_NAME_LENGTH, errors, [...fieldPath, 'name']);
    const value = readRequiredText(model, 'value', MAX_EMBED_FIELD_VALUE_LENGTH, errors, [
      ...fieldPath,
      'value',
    ]);
    const rawInline = getField(model, 'inline');
    const inline = isAbsent(rawInline) ? false : readBoolean(rawInline, errors, [...fieldPath, 'inline']);
    if (name !== undefined && value !== undefined && inline !== undefined)
      fields.push({ name, value, inline });
  });
  return fields;
}

function readAuthor(raw: unknown, errors: FormErrors, path: ErrorPath): Embed['author'] | undefined {
  if (isAbsent(raw)) return undefined;
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const name = readRequiredText(model, 'name', MAX_EMBED_AUTHOR_NAME_LENGTH, errors, [...path, 'name']);
  const url = readOptionalUrl(getField(model, 'url'), 'link', errors, [...path, 'url']);
  const iconUrl = readOptionalUrl(getField(model, 'icon_url'), 'media', errors, [...path, 'icon_url']);
  if (name === undefined) return undefined;
  return { name, ...(url ? { url } : {}), ...(iconUrl ? { icon_url: iconUrl } : {}) };
}

function readFooter(raw: unknown, errors: FormErrors, path: ErrorPath): Embed['footer'] | undefined {
  if (isAbsent(raw)) return undefined;
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const text = readRequiredText(model, 'text', MAX_EMBED_FOOTER_TEXT_LENGTH, errors, [...path, 'text']);
  const iconUrl = readOptionalUrl(getField(model, 'icon_url'), 'media', errors, [...path, 'icon_url']);
  if (text === undefined) return undefined;
  return { text, ...(iconUrl ? { icon_url: iconUrl } : {}) };
}

// `image` and `thumbnail`: `{url}`; the sizes are the unfurler's to fill in, not the sender's.
function readMedia(raw: unknown, errors: FormErrors, path: ErrorPath): { url: string } | undefined {
  if (isAbsent(raw)) return undefined;
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const rawUrl = getField(model, 'url');
  if (isAbsent(rawUrl) || rawUrl === '') {
    addRequired(errors, [...path, 'url']);
    return undefined;
  }
  const url = readOptionalUrl(rawUrl, 'media', errors, [...path, 'url']);
  return url ? { url } : undefined;
}

// Optional text: null and "" read as absent, as Discord drops an empty title or description.
function readOptionalText(
  model: JsonObject,
  key: string,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  const raw = getField(model, key);
  if (isAbsent(raw)) return undefined;
  const text = readString(raw, errors, path);
  if (text === undefined || !checkLength(text, 0, max, errors, path)) return undefined;
  return text === '' ? undefined : text;
}

// Required text (a field's name and value, the footer's text, the author's name): "" is
// missing, as the real API answers an empty field value with BASE_TYPE_REQUIRED.
function readRequiredText(
  model: JsonObject,
  key: string,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  const raw = getField(model, key);
  if (isAbsent(raw) || raw === '') {
    addRequired(errors, path);
    return undefined;
  }
  const text = readString(raw, errors, path);
  if (text === undefined || !checkLength(text, 0, max, errors, path)) return undefined;
  return text;
}

/** A URL of at most 2048 characters with an allowed scheme; null and "" read as absent. */
function readOptionalUrl(
  raw: unknown,
  kind: UrlKind,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  if (isAbsent(raw) || raw === '') return undefined;
  const text = readString(raw, errors, path);
  if (text === undefined || !checkLength(text, 0, MAX_EMBED_URL_LENGTH, errors, path)) return undefined;
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/[^\s]+$/.exec(text);
  if (!match || !URL.canParse(text)) {
    errors.add(path, ErrorCode.URL_TYPE_INVALID_URL, 'Not a well formed URL.');
    return undefined;
  }
  const scheme = (match[1] as string).toLowerCase();
  const allowed = kind === 'link' ? LINK_SCHEMES : MEDIA_SCHEMES;
  if (!allowed.includes(scheme)) {
    errors.add(
      path,
      ErrorCode.URL_TYPE_INVALID_SCHEME,
      `Scheme "${scheme}" is not supported. Scheme must be one of (${allowed.map((s) => `'${s}'`).join(', ')}).`,
    );
    return undefined;
  }
  return text;
}

// ISO 8601 with a date and a time; answered in Discord's own form (UTC, "+00:00").
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

function readTimestamp(raw: unknown, errors: FormErrors, path: ErrorPath): string | undefined {
  if (isAbsent(raw)) return undefined;
  const text = readString(raw, errors, path);
  if (text === undefined) return undefined;
  const millis = ISO_8601.test(text) && isCalendarValid(text) ? Date.parse(normalizeIso(text)) : NaN;
  // A UTC instant outside years 1-9999 has no four-digit form to answer with.
  const year = Number.isNaN(millis) ? NaN : new Date(millis).getUTCFullYear();
  if (Number.isNaN(millis) || year < 1 || year > 9999) {
    errors.add(path, ErrorCode.DATE_TYPE_PARSE, `Could not parse ${describe(text)}. Should be ISO8601.`);
    return undefined;
  }
  return formatTimestamp(new Date(millis));
}

// Date.parse rolls impossible dates over (February 30th becomes March 1st) and takes hour
// 24: each part must exist in the calendar as written.
function isCalendarValid(text: string): boolean {
  const [, y, mo, d, h = '0', mi = '0', sec = '0'] =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/i.exec(text) ?? [];
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= lastDay &&
    Number(h) <= 23 &&
    Number(mi) <= 59 &&
    Number(sec) <= 59
  );
}

// Date.parse reads "2024-01-02T03:04:05+0100" only with a colon in the offset, a bare date
// as UTC, and a date-time without an offset as local time: ISO 8601 without an offset is
// taken as UTC here, as a server in UTC reads it.
function normalizeIso(text: string): string {
  let iso = text.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (iso.includes('T') && !/(Z|[+-]\d{2}:\d{2})$/i.test(iso)) iso += 'Z';
  // JavaScript keeps milliseconds only: longer fractions are cut, as they carry no more.
  return iso.replace(/(\.\d{3})\d+/, '$1');
}

function describe(text: string): string {
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}
