import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobWriteAbortedError, checkBlobKey, type BlobEntry, type BlobStore } from './blob-store';
import { ByteLimiter } from './limit-bytes';

/** Where an S3BlobStore keeps its blobs. */
export interface S3BlobStoreOptions {
  bucket: string;
  /** Prepended to every key ("" by default; "acs/" keeps ACS under one folder of the bucket). */
  keyPrefix?: string;
  /** The client's settings: endpoint, region, credentials, forcePathStyle. */
  client: S3ClientConfig;
  /** Bytes of each part of a multipart upload (S3's least, 5 MiB, by default): what one upload buffers. */
  partSize?: number;
}

/** The least part size S3 accepts. */
const MIN_PART_SIZE = 5 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  const meta = (error as { $metadata?: { httpStatusCode?: number }; name?: string } | undefined) ?? {};
  return meta.name === 'NoSuchKey' || meta.name === 'NotFound' || meta.$metadata?.httpStatusCode === 404;
}

/**
 * A BlobStore in an S3-compatible bucket, through the AWS SDK: writes stream through
 * lib-storage's Upload (a multipart upload of `partSize` parts, one buffered at a time,
 * aborted when the byte limit is crossed), reads are GetObject's body stream.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client(options.client);
  const prefix = options.keyPrefix ?? '';
  const Bucket = options.bucket;
  const keyOf = (key: string) => {
    checkBlobKey(key);
    return `${prefix}${key}`;
  };

  return {
    async put(key, body: Readable, { contentType, maxBytes }) {
      if (body.destroyed) throw new BlobWriteAbortedError();
      const limiter = new ByteLimiter(maxBytes);
      const upload = new Upload({
        client,
        params: { Bucket, Key: keyOf(key), Body: limiter, ContentType: contentType },
        partSize: Math.max(options.partSize ?? MIN_PART_SIZE, MIN_PART_SIZE),
        queueSize: 1,
        leavePartsOnError: false,
      });
      const uploaded = upload.done();
      // The upload's own failure is awaited below; this keeps it from going unhandled meanwhile.
      uploaded.catch(() => undefined);
      try {
        await pipeline(body, limiter);
      } catch (error) {
        await upload.abort().catch(() => undefined);
        await uploaded.catch(() => undefined);
        // A single-part upload may already be complete when the limit is crossed late.
        await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) })).catch(() => undefined);
        throw error;
      }
      await uploaded;
      return { size: limiter.bytes };
    },

    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return {
          stream: answer.Body as Readable,
          contentType: answer.ContentType ?? 'application/octet-stream',
          size: answer.ContentLength ?? 0,
        };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },

    async listOlderThan(listPrefix, before) {
      const found: BlobEntry[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: `${prefix}${listPrefix}`, ContinuationToken }),
        );
        for (const item of page.Contents ?? []) {
          if (!item.Key || !item.LastModified || item.LastModified >= before) continue;
          found.push({ key: item.Key.slice(prefix.length), lastModified: item.LastModified });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
  };
}
