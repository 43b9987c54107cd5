import type { Request } from 'express';
import type { BlobStore } from '@acs/blob-store';
import type { MessageFiles } from '../clients/interactions-client';
import { deleteBlobs } from '../http/read-message-upload';
import { toDiscordError } from '../http/render-error';

/** How the message routes take files (multipart bodies); without it a file part is refused. */
export interface MessageUploads {
  blobs: BlobStore;
  /** Most bytes of `payload_json`. */
  maxPayloadBytes: number;
  /** The stack's public base URL for attachments' `url`; unset: the request's own scheme and host. */
  publicBaseUrl?: string;
}

/** The request's stored files, and where their attachments will be served. */
export function filesOf(req: Request, uploads: MessageUploads | undefined): MessageFiles | undefined {
  const files = req.uploadedFiles;
  if (!files || files.length === 0) return undefined;
  return {
    files,
    baseUrl: uploads?.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`,
  };
}

/**
 * Runs a message call with the request's files: when the service refuses the message, its
 * blobs are deleted at once. A failure in transport (503, 504) may have hidden a commit, so
 * those are left to interactions' sweep of blobs no attachment names.
 */
export async function withFiles<T>(
  req: Request,
  uploads: MessageUploads | undefined,
  call: (files: MessageFiles | undefined) => Promise<T>,
): Promise<T> {
  const files = filesOf(req, uploads);
  try {
    return await call(files);
  } catch (error) {
    const status = toDiscordError(error)?.httpStatus ?? 500;
    if (files && uploads && status < 500) {
      await deleteBlobs(
        uploads.blobs,
        files.files.map((file) => file.blobKey),
      );
    }
    throw error;
  }
}
