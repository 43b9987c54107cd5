import { MAX_MEMBERS_PER_QUERY, MAX_NONCE_BYTES } from './gateway-codes';

/** What a Request Guild Members (op 8) asks for, read. */
export interface RequestGuildMembers {
  guildId: string;
  /** Given: the members whose username or nick starts with it (`""`: any). Null with `userIds`. */
  query: string | null;
  /** With `query`: at most this many members; 0 (with `""`) is all of them. */
  limit: number;
  presences: boolean;
  /** Given: exactly these users (at most 100). Null with `query`. */
  userIds: string[] | null;
  /** Echoed in the chunks; null when absent or invalid (ignored, as Discord ignores it). */
  nonce: string | null;
}

const SNOWFLAKE = /^\d{1,20}$/;
const MAX_SNOWFLAKE = (1n << 63n) - 1n;

const isSnowflake = (v: unknown): v is string =>
  typeof v === 'string' && SNOWFLAKE.test(v) && BigInt(v) <= MAX_SNOWFLAKE;

/**
 * Reads op 8's `d` (D:events/gateway-events.mdx §Request Guild Members): one `guild_id`;
 * `query` (a string) with `limit` (an integer ≥ 0), or `user_ids` (a snowflake or an array
 * of them; past the first 100 they are not looked at, as at most 100 members are
 * returned); `presences` a boolean; `nonce` a string of at most 32 bytes, else ignored.
 * Null for any other shape: the payload is invalid for its opcode, which Discord closes
 * with 4001 (D:topics/opcodes-and-status-codes.mdx "an invalid payload for an opcode").
 */
export function readRequestGuildMembers(d: unknown): RequestGuildMembers | null {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return null;
  const r = d as Record<string, unknown>;
  if (!isSnowflake(r.guild_id)) return null;
  if (r.presences !== undefined && r.presences !== null && typeof r.presences !== 'boolean') return null;
  const nonce =
    typeof r.nonce === 'string' && Buffer.byteLength(r.nonce, 'utf8') <= MAX_NONCE_BYTES ? r.nonce : null;
  const base = { guildId: r.guild_id, presences: r.presences === true, nonce };
  if (r.user_ids !== undefined && r.user_ids !== null) {
    const ids = Array.isArray(r.user_ids) ? r.user_ids : [r.user_ids];
    if (!ids.every(isSnowflake)) return null;
    return { ...base, query: null, limit: 0, userIds: [...new Set(ids.slice(0, MAX_MEMBERS_PER_QUERY))] };
  }
  if (typeof r.query !== 'string' || r.query.includes('\u0000')) return null;
  const limit = r.limit;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) return null;
  return { ...base, query: r.query, limit, userIds: null };
}

/** Whether the request asks for the whole member list (`query` "" ): it needs GUILD_MEMBERS. */
export function asksForMemberList(request: RequestGuildMembers): boolean {
  return request.query === '';
}

/** Whether the request is for ALL members (`query` "", `limit` 0): one per guild per bot per 30 s. */
export function asksForAllMembers(request: RequestGuildMembers): boolean {
  return request.query === '' && request.limit === 0;
}
