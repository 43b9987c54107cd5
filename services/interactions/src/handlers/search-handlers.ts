import type { interactions } from '@acs/protos';
import { InvalidFormBodyError, readPathSnowflake } from '@acs/discord-errors';
import { PERMISSION_FLAGS } from '@acs/validation';
import type { PermissionsClient } from '../clients/permissions-client';
import { assertMaySearch, indexNotReadyAnswer, readSearchQuery, searchedChannels } from '../domain/search';
import type { SearchStore } from '../store/search-store';

/** What the search handler needs. */
export interface SearchHandlerDeps {
  permissions: PermissionsClient;
  search: SearchStore;
  /** SEARCH_INDEX_DELAY_MS: how long after a guild's first search its index is due. */
  searchIndexDelayMs: number;
}

/**
 * `GET /guilds/{guild.id}/messages/search` (D:resources/message.mdx §Search Guild Messages):
 * the query is read first (400 / 50035), then a bot's MESSAGE_CONTENT toggle (403 / 50001),
 * then permissions names the channels the caller may read (404 / 10004, 403 / 50001 for a
 * guild it is not in); a guild not indexed yet answers 202 / 110000 (its index is asked for),
 * an indexed one the page: `{doing_deep_historical_index, documents_indexed, total_results,
 * messages: [[message]], threads, members}`, each message without `reactions` and with `hit`.
 */
export function createSearchHandlers({ permissions, search, searchIndexDelayMs }: SearchHandlerDeps) {
  return {
    async SearchGuildMessages(
      req: interactions.SearchGuildMessagesRequest__Output,
    ): Promise<interactions.SearchGuildMessagesResponse> {
      const guildId = readPathSnowflake('guild_id', req.guild_id);
      const userId = readPathSnowflake('user_id', req.user_id);
      const query = readSearchQuery(readPairs(req.query_json));
      const applicationId =
        req.application_id === '' ? null : readPathSnowflake('application_id', req.application_id);
      assertMaySearch({ applicationId, applicationFlags: Number(req.application_flags) });
      const readable = await permissions.listChannelsWith(
        guildId,
        userId,
        PERMISSION_FLAGS.VIEW_CHANNEL | PERMISSION_FLAGS.READ_MESSAGE_HISTORY,
      );
      const state = await search.state(guildId, searchIndexDelayMs);
      if (state.kind === 'building') {
        return {
          status: 202,
          body_json: JSON.stringify(indexNotReadyAnswer(state.documentsIndexed, state.retryAfterMs)),
        };
      }
      const channels = searchedChannels(readable, query.channelIds);
      const page =
        channels.length === 0
          ? { totalResults: 0, messages: [] }
          : await search.search(guildId, channels, query);
      const messages = page.messages.map((message) => {
        // Search results come without `reactions` (D §Search Guild Messages).
        const rest = { ...message };
        delete rest.reactions;
        return [{ ...rest, guild_id: guildId, hit: true }];
      });
      return {
        status: 200,
        body_json: JSON.stringify({
          doing_deep_historical_index: false,
          total_results: page.totalResults,
          messages,
          threads: [],
          members: [],
        }),
      };
    },
  };
}

/** The `[key, value]` pairs api-gateway read from the query string. */
function readPairs(text: string): [string, string][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text === '' ? '[]' : text);
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    !parsed.every(
      (pair) =>
        Array.isArray(pair) &&
        pair.length === 2 &&
        typeof pair[0] === 'string' &&
        typeof pair[1] === 'string',
    )
  ) {
    throw new InvalidFormBodyError({
      _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Malformed query' }],
    });
  }
  return parsed as [string, string][];
}
