import { createHash } from 'node:crypto';
import type { Principal } from '../domain/principal';

/** The prefixes of the Authorization header, lowercased; a Map, so `constructor` or `__proto__` is no prefix. */
const PREFIXES = new Map<string, Principal['kind']>([
  ['bot', 'bot'],
  ['bearer', 'bearer'],
]);

/** An Authorization header as the gateway reads it. */
export interface Credential {
  /** The prefix's kind; `user` for a header with no known prefix (a chat-client session token). */
  kind: Principal['kind'];
  token: string;
  /**
   * The same for every spelling of one credential (`Bot T`, `bot T`, `Bot  T`): the token
   * cache and the rate limiter key on it, so a spelling is neither a new bucket nor a new
   * ResolveToken call.
   */
  key: string;
}

/**
 * Reads `<prefix> <token>`: the prefix up to the first space, in any case, then the token
 * with the whitespace around it trimmed. Without a known prefix the whole header, trimmed,
 * is the token.
 */
export function readCredential(header: string): Credential {
  const space = header.indexOf(' ');
  const prefixed = space > 0 ? PREFIXES.get(header.slice(0, space).toLowerCase()) : undefined;
  const kind = prefixed ?? 'user';
  const token = prefixed ? header.slice(space + 1).trim() : header.trim();
  const key = createHash('sha256').update(`${kind} ${token}`).digest('base64');
  return { kind, token, key };
}
