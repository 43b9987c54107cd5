import { isSnowflake } from '@acs/snowflake';

/**
 * The ids of `resolve_user_ids` worth looking up, each once. An id that is no snowflake
 * names no user: it is left out of the answer like an unknown one rather than failing the
 * whole call, so that the caller reports it where the invocation named it.
 */
export function resolvableUserIds(ids: readonly string[]): bigint[] {
  return [...new Set(ids.filter(isSnowflake))].map((id) => BigInt(id));
}
