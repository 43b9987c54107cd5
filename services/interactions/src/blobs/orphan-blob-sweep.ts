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
  /**
   * Retires the expired ephemeral answers (their token expired): the blob keys of their
   * files, which the pass deletes before it looks for orphans.
   */
  retireExpiredEphemeral?: () => Promise<string[]>;
  /** How old an unnamed blob must be: longer than any upload takes to become a message. */
  orphanAgeMs: number;
  intervalMs: number;
}

/**
 * Off the request path, at each interval: first retires the expired ephemeral answers and
 * deletes their files (an ephemeral answer's file lives as long as its token), then deletes
 * the blobs no attachment names, older than `orphanAgeMs`: what a crash between an upload
 * and its message's commit, or a failed deletion, leaves. A refused message's blobs are
 * deleted by api-gateway at once, a deleted message's by its store after commit; this
 * catches the rest. Replicas may sweep side by side: deleting a blob twice is nothing.
 */
export class OrphanBlobSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: OrphanBlobSweepOptions) {}

  /** One pass: the number of blobs deleted. */
  async sweepOnce(now = new Date()): Promise<number> {
    const { blobs, attachments, orphanAgeMs } = this.options;
    let deleted = 0;
    for (;;) {
      const expired = (await this.options.retireExpiredEphemeral?.()) ?? [];
      for (const key of expired) {
        await blobs.delete(key);
        deleted += 1;
      }
      if (expired.length === 0) break;
    }
    const old = await blobs.listOlderThan(UPLOADS_PREFIX, new Date(now.getTime() - orphanAgeMs));
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
          if (deleted > 0)
            this.options.logger.info({ deleted }, 'blobs deleted (expired ephemeral answers, orphans)');
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
