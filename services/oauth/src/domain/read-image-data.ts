import { createHash } from 'node:crypto';
import type { ErrorPath, FormErrors } from '@acs/validation';
import { ErrorCode } from './error-codes';
import { readString } from './read-value';

/** A data URI of an image type Discord takes (OAS: base64 content), its payload in group 1. */
const IMAGE_DATA_URI = /^data:image\/(?:png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * An image field (`icon`, `cover_image`): a base64 data URI of a PNG, JPEG, GIF or WebP
 * image, kept as the hex MD5 digest of its bytes, which is how the API shows images
 * (there is no CDN here to serve them); null clears it. Anything else is IMAGE_INVALID.
 * The body's size limit bounds the work.
 */
export function readImageData(
  value: unknown,
  errors: FormErrors,
  path: ErrorPath,
): string | null | undefined {
  if (value === null) return null;
  const text = readString(value, errors, path);
  if (text === undefined) return undefined;
  const payload = IMAGE_DATA_URI.exec(text)?.[1];
  const bytes = payload === undefined ? undefined : Buffer.from(payload, 'base64');
  if (!bytes || bytes.length === 0) {
    errors.add(path, ErrorCode.IMAGE_INVALID, 'Invalid image data');
    return undefined;
  }
  return createHash('md5').update(bytes).digest('hex');
}
