import type { Readable } from 'node:stream';

/** How a blob is written. */
export interface PutOptions {
  /** The blob's media type, served back with it. */
  contentType: string;
  /** Most bytes the blob may have: one more fails the write with BlobTooLargeError, nothing kept. */
  maxBytes: number;
}

/** A stored blob, ready to be read. */
export interface StoredBlob {
  /** The bytes, streamed: the caller reads (or destroys) it. */
  stream: Readable;
  contentType: string;
  size: number;
}

/** A blob as a listing names it. */
export interface BlobEntry {
  key: string;
  lastModified: Date;
}

/**
 * Where attachments' bytes live, behind one small interface: a directory of files
 * (createFileBlobStore) or an S3-compatible bucket (createS3BlobStore). Keys are
 * slash-separated words of `[A-Za-z0-9._-]` (no `..`): the caller names them.
 */
export interface BlobStore {
  /**
   * Streams `body` into the blob `key`, counting its bytes: past `maxBytes` it stops
   * reading, removes what it wrote and rejects with BlobTooLargeError. Memory stays bounded
   * by the stream's buffers, whatever the size. A failed write leaves no blob.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** The blob `key`, or undefined when there is none. */
  get(key: string): Promise<StoredBlob | undefined>;
  /** Removes the blob `key` (nothing when there is none). */
  delete(key: string): Promise<void>;
  /** The blobs under `prefix` last written before `before`: what a sweep of orphans looks at. */
  listOlderThan(prefix: string, before: Date): Promise<BlobEntry[]>;
}

/** A write that crossed its `maxBytes`. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The blob is larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Throws for a key that is not slash-separated words, or that has a `.` or `..` segment. */
export function checkBlobKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
}

/** A write whose body was ended (destroyed) by its caller before it could be read. */
export class BlobWriteAbortedError extends Error {
  constructor() {
    super("The blob's body was destroyed before it was written");
    this.name = 'BlobWriteAbortedError';
  }
}
