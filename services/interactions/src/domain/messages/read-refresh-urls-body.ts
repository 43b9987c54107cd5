import { parseJsonBody } from '@acs/discord-errors';
import {
  FormErrors,
  addRequired,
  checkItemCount,
  checkLength,
  getField,
  isAbsent,
  readList,
  readModel,
  readString,
} from '@acs/validation';

/** Most URLs one refresh names ([Inf]: Discord documents no limit; a page of messages' worth). */
export const MAX_REFRESH_URLS = 50;
/** Longest URL a refresh takes: an attachment URL with a 1024-character filename and a signature fits. */
export const MAX_REFRESH_URL_LENGTH = 4096;

/**
 * Reads `POST /attachments/refresh-urls`' body `{attachment_urls: [string]}`: 1 to 50 URLs,
 * each a string of 1-4096 characters (400 / 50035 at the field otherwise). The URLs, in order.
 */
export function readRefreshUrlsBody(text: string): string[] {
  const errors = new FormErrors();
  const model = readModel(parseJsonBody(text), errors, []);
  const raw = model ? getField(model, 'attachment_urls') : undefined;
  if (model && isAbsent(raw)) addRequired(errors, ['attachment_urls']);
  const list = model && !isAbsent(raw) ? readList(raw, errors, ['attachment_urls']) : undefined;
  const urls: string[] = [];
  if (list && checkItemCount(list, 1, MAX_REFRESH_URLS, errors, ['attachment_urls'])) {
    list.forEach((item, index) => {
      const path = ['attachment_urls', index];
      const url = readString(item, errors, path);
      if (url !== undefined && checkLength(url, 1, MAX_REFRESH_URL_LENGTH, errors, path)) urls.push(url);
    });
  }
  errors.throwIfAny();
  return urls;
}
