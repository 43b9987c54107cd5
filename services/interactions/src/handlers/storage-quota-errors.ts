import { StorageQuotaExceededError } from '../domain/messages';
import { isStorageQuotaRefusal } from '../store/storage-quota';

/** A gRPC handler of this service: a request in, an answer (or its promise) out. */
type Handler = (request: never) => unknown;

/**
 * `handlers` that answer a write refused by the storage quota (whichever store made it: a
 * callback, a follow-up, an edit, a channel message, a modal submit's files) with 413 /
 * 40005 naming the quota. The refused transaction stored nothing; api-gateway deletes the
 * request's blobs on any 4xx, so no file is left either.
 */
export function withStorageQuotaErrors<T extends Record<string, Handler>>(
  handlers: T,
  quotaBytes: number,
): T {
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      async (request: never) => {
        try {
          return await handler(request);
        } catch (error) {
          if (isStorageQuotaRefusal(error)) throw new StorageQuotaExceededError(quotaBytes);
          throw error;
        }
      },
    ]),
  ) as T;
}
