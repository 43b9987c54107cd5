import type { interactions } from '@acs/protos';
import type { UploadedFile } from '../domain/messages';

/** The files api-gateway stored for a multipart body, as the domain reads them. */
export function uploadedFilesOf(
  files: readonly interactions.UploadedFile__Output[] | undefined,
): UploadedFile[] {
  return (files ?? []).map((file) => ({
    index: file.index,
    blobKey: file.blob_key,
    filename: file.filename,
    contentType: file.content_type,
    size: Number(file.size),
  }));
}
