// Content components of components-v2 messages (D §Text Display, §Thumbnail, §Media
// Gallery, §File, §Separator, §Unfurled Media Item).
import {
  addRequired,
  checkItemCount,
  getField,
  isAbsent,
  readList,
  readModel,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import {
  MAX_GALLERY_ITEMS,
  MAX_MEDIA_DESCRIPTION_LENGTH,
  MAX_MEDIA_URL_LENGTH,
  MAX_TEXT_DISPLAY_LENGTH,
} from './component-limits';
import {
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalText,
  readRequiredText,
  type ComponentWalk,
} from './component-walk';
import { isAttachmentUrl, readComponentUrl } from './read-component-url';

const MEDIA_SCHEMES = ['http', 'https', 'attachment'];

/** A text display: `content`, 1-4000 characters of markdown. */
export function readTextDisplay(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const content = readRequiredText(model, 'content', 1, MAX_TEXT_DISPLAY_LENGTH, walk.errors, path);
  return content === undefined ? undefined : { content };
}

/** A thumbnail: `media` (a URL or `attachment://`), `description` ≤ 1024, `spoiler`. */
export function readThumbnail(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  return readMediaItem(model, walk.errors, path);
}

/** A media gallery: 1-10 items, each a thumbnail's fields. */
export function readMediaGallery(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const { errors } = walk;
  const raw = getField(model, 'items');
  const at = [...path, 'items'];
  if (isAbsent(raw)) {
    addRequired(errors, at);
    return undefined;
  }
  const list = readList(raw, errors, at);
  if (!list || !checkItemCount(list, 1, MAX_GALLERY_ITEMS, errors, at)) return undefined;
  const before = errors.count;
  const items = list.map((item, index) => {
    const itemModel = readModel(item, errors, [...at, index]);
    return itemModel && readMediaItem(itemModel, errors, [...at, index]);
  });
  return errors.count === before ? { items: items as JsonObject[] } : undefined;
}

/**
 * A file: `file` must name one of the message's attachments (`attachment://<filename>`
 * only, D §File); `spoiler`. `name` and `size` are the API's to fill and are ignored.
 * Whether the named file was uploaded with the message is the attachments' rule, not
 * checked here.
 */
export function readFile(model: JsonObject, walk: ComponentWalk, path: ErrorPath): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const media = readUnfurledMedia(model, 'file', errors, path);
  if (media && !isAttachmentUrl(media.url as string)) {
    errors.add(
      [...path, 'file', 'url'],
      ErrorCode.MEDIA_URL_ATTACHMENT_REQUIRED,
      'A file component only takes attachment://<filename> URLs',
    );
  }
  const spoiler = readOptionalBoolean(model, 'spoiler', false, errors, path);
  if (errors.count !== before) return undefined;
  return { file: media as JsonObject, spoiler: !!spoiler };
}

/** A separator: `divider` (default true), `spacing` 1 small or 2 large (default 1). */
export function readSeparator(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const { errors } = walk;
  const divider = readOptionalBoolean(model, 'divider', true, errors, path);
  const spacing = readOptionalInteger(model, 'spacing', 1, 2, 1, errors, path);
  if (divider === undefined || spacing === undefined) return undefined;
  return { divider, spacing };
}

function readMediaItem(model: JsonObject, errors: FormErrors, path: ErrorPath): JsonObject | undefined {
  const before = errors.count;
  const media = readUnfurledMedia(model, 'media', errors, path);
  const description = readOptionalText(model, 'description', MAX_MEDIA_DESCRIPTION_LENGTH, errors, path);
  const spoiler = readOptionalBoolean(model, 'spoiler', false, errors, path);
  if (errors.count !== before) return undefined;
  const item: JsonObject = { media: media as JsonObject, spoiler: !!spoiler };
  if (description) item.description = description;
  return item;
}

// An unfurled media item: only `url` is the sender's; the rest is the API's to fill.
function readUnfurledMedia(
  model: JsonObject,
  key: string,
  errors: FormErrors,
  path: ErrorPath,
): JsonObject | undefined {
  const raw = getField(model, key);
  const at = [...path, key];
  if (isAbsent(raw)) {
    addRequired(errors, at);
    return undefined;
  }
  const media = readModel(raw, errors, at);
  if (!media) return undefined;
  const rawUrl = getField(media, 'url');
  if (isAbsent(rawUrl)) {
    addRequired(errors, [...at, 'url']);
    return undefined;
  }
  const url = readComponentUrl(rawUrl, MEDIA_SCHEMES, MAX_MEDIA_URL_LENGTH, errors, [...at, 'url']);
  return url === undefined ? undefined : { url };
}
