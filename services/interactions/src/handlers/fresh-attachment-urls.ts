import type { AttachmentSigner } from '../domain/messages';

/** A gRPC handler of this service: a request in, an answer (or its promise) out. */
type Handler = (request: never) => unknown;

/**
 * `handlers` whose answers carry attachment URLs signed afresh: every JSON text of an
 * answer (its `…_json` fields: a message, a page of messages, an outcome) has each signed
 * attachment URL renewed, so that reading a message again hands out links good for the
 * signer's lifetime from now, as Discord's API does. A text without `/attachments/` is left
 * as it is, unread.
 */
export function withFreshAttachmentUrls<T extends Record<string, Handler>>(
  handlers: T,
  signer: Pick<AttachmentSigner, 'refreshInJson'>,
): T {
  const fresh = (answer: unknown): unknown => {
    if (typeof answer !== 'object' || answer === null) return answer;
    let copy: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(answer)) {
      if (!key.endsWith('_json') || typeof value !== 'string') continue;
      const renewed = signer.refreshInJson(value);
      if (renewed === value) continue;
      copy ??= { ...(answer as Record<string, unknown>) };
      copy[key] = renewed;
    }
    return copy ?? answer;
  };
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      async (request: never) => fresh(await handler(request)),
    ]),
  ) as T;
}
