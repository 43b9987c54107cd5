import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { BlobWriteAbortedError, checkBlobKey, type BlobEntry, type BlobStore } from './blob-store';
import { ByteLimiter } from './limit-bytes';

/** The sidecar file that keeps a blob's media type. */
const META_SUFFIX = '.meta.json';
/** A blob being written; renamed into place once whole. */
const PART_SUFFIX = '.part';

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

/**
 * A BlobStore in the directory `root` (created as needed): each blob is a file at its
 * key's path, with its media type in a `.meta.json` beside it. A write goes to a
 * `.part` file renamed into place once whole, so a reader never sees half a blob.
 */
export function createFileBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    checkBlobKey(key);
    return join(root, ...key.split('/'));
  };

  return {
    async put(key, body: Readable, { contentType, maxBytes }) {
      const path = pathOf(key);
      const part = `${path}.${randomUUID()}${PART_SUFFIX}`;
      await mkdir(dirname(path), { recursive: true });
      const limiter = new ByteLimiter(maxBytes);
      // Opened before the copy starts, so that a failure's cleanup never races the file's creation.
      const file = await open(part, 'wx');
      try {
        if (body.destroyed) throw new BlobWriteAbortedError();
        await pipeline(body, limiter, file.createWriteStream());
        await writeFile(`${path}${META_SUFFIX}`, JSON.stringify({ contentType }));
        await rename(part, path);
      } catch (error) {
        await file.close().catch(() => undefined);
        await rm(part, { force: true });
        throw error;
      }
      return { size: limiter.bytes };
    },

    async get(key) {
      const path = pathOf(key);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        if (isCode(error, 'ENOENT')) return undefined;
        throw error;
      }
      let contentType = 'application/octet-stream';
      try {
        const meta = JSON.parse(await readFile(`${path}${META_SUFFIX}`, 'utf8')) as { contentType?: unknown };
        if (typeof meta.contentType === 'string') contentType = meta.contentType;
      } catch (error) {
        if (!isCode(error, 'ENOENT')) throw error;
      }
      return { stream: createReadStream(path), contentType, size };
    },

    async delete(key) {
      const path = pathOf(key);
      await rm(path, { force: true });
      await rm(`${path}${META_SUFFIX}`, { force: true });
    },

    async listOlderThan(prefix, before) {
      const found: BlobEntry[] = [];
      const start = prefix === '' ? root : pathOf(prefix.replace(/\/$/, ''));
      let names: string[];
      try {
        names = (await readdir(start, { recursive: true })) as string[];
      } catch (error) {
        if (isCode(error, 'ENOENT')) return found;
        throw error;
      }
      for (const name of names) {
        if (name.endsWith(META_SUFFIX)) continue;
        const path = join(start, name);
        let info;
        try {
          info = await stat(path);
        } catch (error) {
          if (isCode(error, 'ENOENT')) continue;
          throw error;
        }
        if (!info.isFile() || info.mtime >= before) continue;
        const key = relative(root, path).split(sep).join('/');
        // A `.part` left by a crash mid-write is an orphan like any other, deleted by its path.
        found.push({ key, lastModified: info.mtime });
      }
      return found;
    },
  };
}
