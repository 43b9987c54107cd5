import { MEMBERS_PER_CHUNK } from './gateway-codes';

/** One member as permissions renders it (`user` with the id only). */
export type MemberObject = Record<string, unknown> & { user: { id: string } };

/** What the chunks of one answer carry besides the members. */
export interface ChunkOptions {
  guildId: string;
  /** Of `user_ids`: those who are not members; null when the request named none. */
  notFound: string[] | null;
  nonce: string | null;
}

/**
 * The Guild Members Chunk dispatches of one answer (D:events/gateway-events.mdx §Guild
 * Members Chunk): 1,000 members each, `chunk_index` / `chunk_count`, `not_found` and
 * `nonce` on every chunk (the caller adds `presences` when they were asked for); an
 * answer with no member is one empty chunk (a client counts on chunk_count to finish).
 */
export function guildMembersChunks(members: readonly MemberObject[], options: ChunkOptions) {
  const count = Math.max(1, Math.ceil(members.length / MEMBERS_PER_CHUNK));
  return Array.from({ length: count }, (_, index) => {
    const part = members.slice(index * MEMBERS_PER_CHUNK, (index + 1) * MEMBERS_PER_CHUNK);
    return {
      guild_id: options.guildId,
      members: part,
      chunk_index: index,
      chunk_count: count,
      ...(options.notFound ? { not_found: options.notFound } : {}),
      ...(options.nonce === null ? {} : { nonce: options.nonce }),
    };
  });
}

/** Whether a member matches a query: its username, global name or nick starts with it, case-insensitively. */
export function matchesQuery(
  member: { nick?: unknown; user: Record<string, unknown> },
  query: string,
): boolean {
  const prefix = query.toLowerCase();
  return [member.user.username, member.user.global_name, member.nick].some(
    (name) => typeof name === 'string' && name.toLowerCase().startsWith(prefix),
  );
}
