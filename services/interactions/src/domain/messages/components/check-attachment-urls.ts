import { isJsonObject, type ErrorPath, type FormErrors, type JsonObject } from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import { isAttachmentUrl } from './read-component-url';

/** The keys under which read components nest: children, a section's accessory, a gallery's items. */
const NESTED_LISTS = ['components', 'items'] as const;
/** The keys of an unfurled media item (`{url}`): a thumbnail's or gallery item's `media`, a file's `file`. */
const MEDIA_KEYS = ['media', 'file'] as const;

/**
 * Checks that every `attachment://<filename>` URL of a message's components (read: the
 * shape readMessageComponents answers, index for index the request's) names one of the
 * message's attachments by `filenames` (a file's name as sent or as the attachment keeps
 * it): 400 / 50035 MEDIA_URL_ATTACHMENT_NOT_FOUND at the URL's path otherwise.
 */
export function checkAttachmentUrls(
  components: readonly JsonObject[],
  filenames: ReadonlySet<string>,
  errors: FormErrors,
  path: ErrorPath,
): void {
  const visit = (component: JsonObject, at: ErrorPath, depth: number): void => {
    for (const key of MEDIA_KEYS) {
      const media = component[key];
      if (!isJsonObject(media) || typeof media.url !== 'string' || !isAttachmentUrl(media.url)) continue;
      const name = media.url.slice('attachment://'.length);
      if (!filenames.has(name)) {
        errors.add(
          [...at, key, 'url'],
          ErrorCode.MEDIA_URL_ATTACHMENT_NOT_FOUND,
          `No attachment of the message is named "${name.slice(0, 100)}"`,
        );
      }
    }
    if (depth >= 3) return;
    if (isJsonObject(component.accessory)) visit(component.accessory, [...at, 'accessory'], depth + 1);
    for (const key of NESTED_LISTS) {
      const list = component[key];
      if (!Array.isArray(list)) continue;
      list.forEach((child, index) => {
        if (isJsonObject(child)) visit(child, [...at, key, index], depth + 1);
      });
    }
  };
  components.forEach((component, index) => visit(component, [...path, index], 0));
}
