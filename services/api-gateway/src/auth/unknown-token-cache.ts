import { LRUCache } from 'lru-cache';

/**
 * Credentials oauth answered "unknown or revoked" (its 401), remembered for a few seconds
 * so that a client repeating a bad token does not cost a ResolveToken call per request.
 * Safe to remember because oauth makes every token itself from fresh random bytes: one it
 * does not know cannot become valid later, and a revoked or expired one stays dead. Only
 * that answer belongs here, never a failed call (unreachable oauth, deadline). Bounded:
 * past `maxEntries` the least recently added entry is forgotten.
 */
export class UnknownTokenCache {
  private readonly keys: LRUCache<string, true> | undefined;

  constructor(ttlSeconds: number, maxEntries = 10_000, now: () => number = Date.now) {
    this.keys =
      ttlSeconds > 0
        ? new LRUCache({ max: maxEntries, ttl: ttlSeconds * 1000, ttlResolution: 0, perf: { now } })
        : undefined;
  }

  /** Whether oauth said, less than the TTL ago, that this credential is unknown. */
  has(key: string): boolean {
    return this.keys?.has(key) ?? false;
  }

  /** Remembers oauth's "unknown or revoked" answer for a credential. */
  add(key: string): void {
    this.keys?.set(key, true);
  }
}
