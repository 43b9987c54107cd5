import type { Pool, PoolClient } from 'pg';
import { withTransaction } from '@acs/service-kit';
import {
  searchDocumentOf,
  type IndexedMessageRow,
  type SearchDocument,
  type SearchQuery,
} from '../domain/search';

/** Where a guild's index stands. */
export type IndexState =
  { kind: 'ready' } | { kind: 'building'; documentsIndexed: number; retryAfterMs: number };

/** A page of search results. */
export interface SearchPage {
  totalResults: number;
  messages: Record<string, unknown>[];
}

/** How many messages the indexer reads and writes at once. */
const BATCH = 500;

/** The messages search may return: not deleted, not ephemeral. */
const SEARCHABLE = 'deleted_at IS NULL AND ephemeral_user_id IS NULL';
const JOINED_SEARCHABLE = 'm.deleted_at IS NULL AND m.ephemeral_user_id IS NULL';

/**
 * Guild message search's index (`search_index`, `search_document`): a guild's first search
 * records it, the indexer fills its documents once it is due, and `reindex` keeps them in
 * step with the messages afterwards. Documents are computed from the stored message, never
 * from an event's copy, so an event applied twice or late writes the message's present state.
 */
export class SearchStore {
  constructor(private readonly pool: Pool) {}

  /**
   * The guild's index, recorded on first use as due in `delayMs` (SEARCH_INDEX_DELAY_MS).
   * Until the indexer has built it the answer is `building`, with how long until it is due.
   */
  async state(guildId: string, delayMs: number): Promise<IndexState> {
    const { rows } = await this.pool.query<{ indexed: boolean; wait_ms: string }>(
      `WITH added AS (
         INSERT INTO search_index (guild_id, ready_at) VALUES ($1, now() + make_interval(secs => $2))
         ON CONFLICT (guild_id) DO NOTHING
         RETURNING indexed_at, ready_at)
       SELECT indexed_at IS NOT NULL AS indexed,
              GREATEST(0, EXTRACT(EPOCH FROM ready_at - now()) * 1000)::bigint::text AS wait_ms
         FROM (SELECT indexed_at, ready_at FROM added
               UNION ALL SELECT indexed_at, ready_at FROM search_index WHERE guild_id = $1) AS i
        LIMIT 1`,
      [guildId, delayMs / 1000],
    );
    const row = rows[0];
    if (row?.indexed) return { kind: 'ready' };
    const { rows: counted } = await this.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM search_document WHERE guild_id = $1',
      [guildId],
    );
    return {
      kind: 'building',
      documentsIndexed: Number(counted[0]?.n ?? 0),
      retryAfterMs: Number(row?.wait_ms ?? delayMs),
    };
  }

  /**
   * Builds the index of one guild that is due, if any (replicas skip a guild another is
   * building): every searchable message of the guild becomes a document, by batches, then
   * the guild is marked indexed. Answers whether a guild was indexed.
   */
  async indexDueGuild(): Promise<boolean> {
    return withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ guild_id: string }>(
        `SELECT guild_id::text FROM search_index
          WHERE indexed_at IS NULL AND ready_at <= now()
          ORDER BY ready_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const guildId = rows[0]?.guild_id;
      if (guildId === undefined) return false;
      let after = '0';
      for (;;) {
        const batch = await readMessages(
          db,
          `guild_id = $1 AND id > $2 AND ${SEARCHABLE} ORDER BY id LIMIT ${BATCH}`,
          [guildId, after],
        );
        if (batch.length === 0) break;
        await upsertDocuments(db, batch.map(searchDocumentOf));
        after = batch[batch.length - 1]?.id ?? after;
      }
      await db.query('UPDATE search_index SET indexed_at = now() WHERE guild_id = $1', [guildId]);
      return true;
    });
  }

  /**
   * Brings the documents of these messages to the messages' present state, in a guild that
   * has an index (being built or built): a searchable message is (re)written, any other
   * (deleted, ephemeral, gone) has none. A guild without an index is passed over: its first
   * build reads every message anyway.
   */
  async reindex(guildId: string, messageIds: readonly string[]): Promise<void> {
    if (messageIds.length === 0) return;
    await withTransaction(this.pool, async (db) => {
      const { rows } = await db.query('SELECT 1 FROM search_index WHERE guild_id = $1', [guildId]);
      if (rows.length === 0) return;
      const found = await readMessages(db, `guild_id = $1 AND id = ANY($2::bigint[]) AND ${SEARCHABLE}`, [
        guildId,
        messageIds,
      ]);
      await upsertDocuments(db, found.map(searchDocumentOf));
      const kept = new Set(found.map((row) => row.id));
      const gone = messageIds.filter((id) => !kept.has(id));
      if (gone.length > 0) {
        await db.query('DELETE FROM search_document WHERE message_id = ANY($1::bigint[])', [gone]);
      }
    });
  }

  /** The messages of a channel whose pinned state the documents may not have yet (a pin or unpin). */
  async pinChanged(guildId: string, channelId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT d.message_id::text AS id FROM search_document d JOIN message m ON m.id = d.message_id
        WHERE d.guild_id = $1 AND d.channel_id = $2 AND d.pinned <> (m.pinned_at IS NOT NULL)`,
      [guildId, channelId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * One page of the guild's messages in `channels` that match the query, with the count of
   * all matches. Each filter is one indexed or array comparison; the content is matched by
   * PostgreSQL's full-text search (every word of `content`, `simple` configuration).
   */
  async search(guildId: string, channels: readonly string[], query: SearchQuery): Promise<SearchPage> {
    const params: unknown[] = [guildId, channels];
    const at = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['d.guild_id = $1', 'd.channel_id = ANY($2::bigint[])'];
    let rank = '';
    if (query.content !== '') {
      const q = `plainto_tsquery('simple', ${at(query.content)})`;
      // Text of no word (punctuation only) filters nothing.
      where.push(`(numnode(${q}) = 0 OR d.content @@ ${q})`);
      rank = `ts_rank_cd(d.content, ${q})`;
    }
    if (query.maxId !== undefined) where.push(`d.message_id < ${at(query.maxId)}::bigint`);
    if (query.minId !== undefined) where.push(`d.message_id > ${at(query.minId)}::bigint`);
    if (query.authorIds.length > 0) where.push(`d.author_id = ANY(${at(query.authorIds)}::bigint[])`);
    if (query.authorTypes.include.length > 0)
      where.push(`d.author_type = ANY(${at(query.authorTypes.include)}::text[])`);
    if (query.authorTypes.exclude.length > 0)
      where.push(`NOT d.author_type = ANY(${at(query.authorTypes.exclude)}::text[])`);
    if (query.mentions.length > 0) where.push(`d.mention_ids && ${at(query.mentions)}::bigint[]`);
    if (query.mentionsRoleIds.length > 0)
      where.push(`d.mention_role_ids && ${at(query.mentionsRoleIds)}::bigint[]`);
    if (query.repliedToUserIds.length > 0)
      where.push(`d.replied_to_user_id = ANY(${at(query.repliedToUserIds)}::bigint[])`);
    if (query.repliedToMessageIds.length > 0)
      where.push(`d.replied_to_message_id = ANY(${at(query.repliedToMessageIds)}::bigint[])`);
    if (query.mentionEveryone !== undefined) where.push(`d.mention_everyone = ${at(query.mentionEveryone)}`);
    if (query.pinned !== undefined) where.push(`d.pinned = ${at(query.pinned)}`);
    if (query.has.include.length > 0) where.push(`d.has @> ${at(query.has.include)}::text[]`);
    if (query.has.exclude.length > 0) where.push(`NOT d.has && ${at(query.has.exclude)}::text[]`);
    if (query.embedTypes.length > 0) where.push(`d.embed_types && ${at(query.embedTypes)}::text[]`);
    if (query.embedProviders.length > 0)
      where.push(`d.embed_providers && ${at(query.embedProviders)}::text[]`);
    if (query.linkHostnames.length > 0) where.push(`d.link_hostnames && ${at(query.linkHostnames)}::text[]`);
    if (query.attachmentExtensions.length > 0)
      where.push(`d.attachment_extensions && ${at(query.attachmentExtensions)}::text[]`);
    if (query.attachmentFilenames.length > 0)
      where.push(`d.attachment_filenames && ${at(query.attachmentFilenames)}::text[]`);
    const direction = query.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const order =
      query.sortBy === 'relevance' && rank !== ''
        ? `${rank} DESC, d.message_id DESC`
        : `d.message_id ${direction}`;
    const { rows } = await this.pool.query<{ body: Record<string, unknown>; total: string }>(
      `SELECT m.body, count(*) OVER ()::text AS total
         FROM search_document d JOIN message m ON m.id = d.message_id AND ${JOINED_SEARCHABLE}
        WHERE ${where.join(' AND ')}
        ORDER BY ${order}
        LIMIT ${at(query.limit)} OFFSET ${at(query.offset)}`,
      params,
    );
    let totalResults = Number(rows[0]?.total ?? 0);
    if (rows.length === 0 && query.offset > 0) {
      // Past the last page the window saw no row: count the matches on their own.
      const { rows: counted } = await this.pool.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM search_document d JOIN message m ON m.id = d.message_id
           AND ${JOINED_SEARCHABLE} WHERE ${where.join(' AND ')}`,
        params.slice(0, params.length - 2),
      );
      totalResults = Number(counted[0]?.n ?? 0);
    }
    return { totalResults, messages: rows.map((row) => row.body) };
  }
}

/** Messages of `condition` as the indexer reads them. */
async function readMessages(
  db: PoolClient,
  condition: string,
  params: unknown[],
): Promise<IndexedMessageRow[]> {
  const { rows } = await db.query<{
    id: string;
    guild_id: string;
    channel_id: string;
    body: Record<string, unknown>;
    pinned: boolean;
  }>(
    `SELECT id::text, guild_id::text, channel_id::text, body, pinned_at IS NOT NULL AS pinned
       FROM message WHERE ${condition}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    body: row.body,
    pinned: row.pinned,
  }));
}

/** Writes documents in one statement (their content turned into a tsvector by PostgreSQL). */
async function upsertDocuments(db: PoolClient, documents: readonly SearchDocument[]): Promise<void> {
  if (documents.length === 0) return;
  const arr = (key: string, type: string) =>
    `ARRAY(SELECT jsonb_array_elements_text(d->'${key}'))::${type}[]`;
  await db.query(
    `INSERT INTO search_document (message_id, guild_id, channel_id, author_id, author_type, content,
        mention_ids, mention_role_ids, mention_everyone, replied_to_user_id, replied_to_message_id,
        pinned, has, embed_types, embed_providers, link_hostnames, attachment_extensions, attachment_filenames)
     SELECT (d->>'messageId')::bigint, (d->>'guildId')::bigint, (d->>'channelId')::bigint,
            (d->>'authorId')::bigint, d->>'authorType', to_tsvector('simple', d->>'content'),
            ${arr('mentionIds', 'bigint')}, ${arr('mentionRoleIds', 'bigint')},
            (d->>'mentionEveryone')::boolean, (d->>'repliedToUserId')::bigint,
            (d->>'repliedToMessageId')::bigint, (d->>'pinned')::boolean,
            ${arr('has', 'text')}, ${arr('embedTypes', 'text')}, ${arr('embedProviders', 'text')},
            ${arr('linkHostnames', 'text')}, ${arr('attachmentExtensions', 'text')},
            ${arr('attachmentFilenames', 'text')}
       FROM jsonb_array_elements($1::jsonb) AS d
     ON CONFLICT (message_id) DO UPDATE SET
        channel_id = EXCLUDED.channel_id, author_id = EXCLUDED.author_id,
        author_type = EXCLUDED.author_type, content = EXCLUDED.content,
        mention_ids = EXCLUDED.mention_ids, mention_role_ids = EXCLUDED.mention_role_ids,
        mention_everyone = EXCLUDED.mention_everyone, replied_to_user_id = EXCLUDED.replied_to_user_id,
        replied_to_message_id = EXCLUDED.replied_to_message_id, pinned = EXCLUDED.pinned,
        has = EXCLUDED.has, embed_types = EXCLUDED.embed_types, embed_providers = EXCLUDED.embed_providers,
        link_hostnames = EXCLUDED.link_hostnames, attachment_extensions = EXCLUDED.attachment_extensions,
        attachment_filenames = EXCLUDED.attachment_filenames`,
    [JSON.stringify(documents)],
  );
}
