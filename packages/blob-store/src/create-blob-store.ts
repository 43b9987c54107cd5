import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { BlobStore } from './blob-store';
import { createFileBlobStore } from './file-blob-store';
import { createS3BlobStore } from './s3-blob-store';

/**
 * The BlobStore a `BLOB_STORE_URL` names (the caller's config reads the setting):
 * - `file:///abs/dir` or a plain path (relative to `cwd`): a directory of files;
 * - `s3://bucket/optional/prefix?endpoint=http://host:port&region=us-east-1&path_style=true`,
 *   with the key id and secret as the URL's user and password (else the SDK's own
 *   credential chain): an S3-compatible bucket.
 */
export function createBlobStore(url: string, cwd = process.cwd()): BlobStore {
  if (url.startsWith('s3://')) {
    const parsed = new URL(url);
    const query = parsed.searchParams;
    const path = decodeURIComponent(parsed.pathname.replace(/^\/+/, ''));
    const endpoint = query.get('endpoint') ?? undefined;
    return createS3BlobStore({
      bucket: decodeURIComponent(parsed.hostname),
      keyPrefix: path === '' ? '' : `${path.replace(/\/+$/, '')}/`,
      client: {
        region: query.get('region') ?? 'us-east-1',
        ...(endpoint ? { endpoint } : {}),
        forcePathStyle: (query.get('path_style') ?? (endpoint ? 'true' : 'false')) === 'true',
        ...(parsed.username
          ? {
              credentials: {
                accessKeyId: decodeURIComponent(parsed.username),
                secretAccessKey: decodeURIComponent(parsed.password),
              },
            }
          : {}),
      },
    });
  }
  if (url.startsWith('file:')) return createFileBlobStore(fileURLToPath(url));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) throw new Error(`Unsupported blob store URL: ${url}`);
  return createFileBlobStore(resolve(cwd, url));
}
