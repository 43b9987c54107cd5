/** A file of a message's multipart body, streamed into the blob store by api-gateway. */
export interface UploadedBlob {
  /** n of its part's name `files[n]`. */
  index: number;
  blobKey: string;
  filename: string;
  contentType: string;
  size: number;
}
