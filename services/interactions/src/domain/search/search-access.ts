// Who may search a guild and what they find (D:resources/message.mdx §Search Guild Messages;
// facts C): the channels the caller may view and read the history of, and, for a bot, the
// MESSAGE_CONTENT toggle of its application.
import { MissingAccessError } from '@acs/discord-errors';

/** GATEWAY_MESSAGE_CONTENT (1 << 18) and its LIMITED form (1 << 19) (D:resources/application.mdx §Application Flags). */
const MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19);

/**
 * A bot searches only when its application has a MESSAGE_CONTENT toggle (CL 2026-03-19: the
 * route is "restricted according to whether MESSAGE_CONTENT is enabled"; the portal flag
 * decides, as on every HTTP route, not the intents of a gateway session). The error is not
 * documented: [Inf] 403 / 50001 Missing Access, as for a channel the caller cannot read.
 */
export function assertMaySearch(caller: { applicationId: string | null; applicationFlags: number }): void {
  if (caller.applicationId !== null && (caller.applicationFlags & MESSAGE_CONTENT_FLAGS) === 0) {
    throw new MissingAccessError();
  }
}

/**
 * The channels a search looks in: those the caller may read (VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY, from permissions), narrowed to `channel_id` when the query names
 * channels. [Inf] A named channel the caller cannot read is left out rather than refused, so
 * that a search learns nothing of channels it cannot see. ACS channels carry no NSFW flag,
 * so `include_nsfw` changes nothing here.
 */
export function searchedChannels(readable: readonly string[], named: readonly string[]): string[] {
  if (named.length === 0) return [...readable];
  const allowed = new Set(readable);
  return named.filter((id) => allowed.has(id));
}

/** Code 110000: the guild's messages are not indexed yet (CL 2026-03-19). */
export const INDEX_NOT_READY_CODE = 110000;

/**
 * The 202 answer of a guild not indexed yet (OAS `SearchIndexNotReadyResponse`, every field
 * required): retry after `retry_after` seconds. It is an answer, not an error: status 202.
 */
export function indexNotReadyAnswer(documentsIndexed: number, retryAfterMs: number) {
  return {
    message: 'Index not yet available. Try again later',
    code: INDEX_NOT_READY_CODE,
    documents_indexed: documentsIndexed,
    retry_after: Math.max(0, Math.ceil(retryAfterMs / 1000)),
  };
}
