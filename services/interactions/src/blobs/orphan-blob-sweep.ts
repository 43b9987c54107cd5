import type { BlobStore } from '@acs/blob-store';
import type { Logger } from '@acs/service-kit';
import type { AttachmentStore } from '../store/attachment-rows';

/** Where api-gateway puts the files of a multipart body (blob keys `uploads/<uuid>`). */
export const UPLOADS_PREFIX = 'uploads/';

/** What the sweep needs. */
export interface OrphanBlobSweepOptions {
  blobs: BlobStore;
  attachments: AttachmentStore;
  logger: Logger;
  /** How old an unnamed blob must be: longer than any upload takes to become a message. */
  orphanAgeMs: number;
  intervalMs: number;
}

/**
 * Deletes the blobs no attachment names, older than `orphanAgeMs`: what a crash between an
 * upload and its message's commit, or a failed deletion, leaves. A refused message's blobs
 * are deleted by api-gateway at once; this catches the rest. Replicas may sweep side by
 * side: deleting a blob twice is nothing.
 */
export class OrphanBlobSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: OrphanBlobSweepOptions) {}

  /** One pass: the number of blobs deleted. */
  async sweepOnce(now = new Date()): Promise<number> {
    const { blobs, attachments, orphanAgeMs } = this.options;
    const old = await blobs.listOlderThan(UPLOADS_PREFIX, new Date(now.getTime() - orphanAgeMs));
    let deleted = 0;
    for (let start = 0; start < old.length; start += 500) {
      const keys = old.slice(start, start + 500).map((entry) => entry.key);
      const named = await attachments.referenced(keys);
      for (const key of keys) {
        if (named.has(key)) continue;
        await blobs.delete(key);
        deleted += 1;
      }
    }
    return deleted;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweepOnce()
        .then((deleted) => {
          if (deleted > 0) this.options.logger.info({ deleted }, 'orphan blobs deleted');
          return deleted;
        })
        .catch((error: unknown) => {
          this.options.logger.warn({ err: error }, 'orphan blob sweep failed');
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}

/** Deletes released blobs in the background; one that fails is left to the sweep. */
export function blobReleaser(blobs: BlobStore, logger: Logger): (keys: string[]) => void {
  return (keys) => {
    for (const key of keys) {
      blobs.delete(key).catch((error: unknown) => logger.warn({ err: error, key }, 'blob deletion failed'));
    }
  };
}
