import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError } from './blob-store';

/** A pass-through that counts bytes and fails with BlobTooLargeError past `maxBytes`. */
export class ByteLimiter extends Transform {
  /** Bytes passed so far (not `size`: lib-storage reads a Body's `size` as its length). */
  bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) done(new BlobTooLargeError(this.maxBytes));
    else done(null, chunk);
  }
}
