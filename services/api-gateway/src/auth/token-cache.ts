import { LRUCache } from 'lru-cache';
import type { Principal } from '../domain/principal';

/**
 * A short-lived map from a token's hash to its principal, so that the hot path does not
 * ask oauth on every request. Entries expire after at most the TTL oauth allowed, and are
 * dropped at once when the application's credentials change. Bounded: past `maxEntries`
 * the least recently used entry goes.
 */
export class TokenCache {
  private readonly entries: LRUCache<string, Principal>;

  constructor(maxEntries = 10_000, now: () => number = Date.now) {
    this.entries = new LRUCache({ max: maxEntries, ttlAutopurge: false, ttlResolution: 0, perf: { now } });
  }

  get(key: string): Principal | undefined {
    return this.entries.get(key);
  }

  set(key: string, principal: Principal, ttlSeconds: number): void {
    if (ttlSeconds <= 0) return;
    this.entries.set(key, principal, { ttl: ttlSeconds * 1000 });
  }

  /** Forgets every token and session of a user (a ban). */
  invalidateUser(userId: string): void {
    for (const [key, principal] of this.entries.entries()) {
      if ('userId' in principal && principal.userId === userId) this.entries.delete(key);
    }
  }

  /** Forgets every token of an application (token reset, flags changed). */
  invalidateApplication(applicationId: string): void {
    for (const [key, principal] of this.entries.entries()) {
      if (principal.applicationId === applicationId) this.entries.delete(key);
    }
  }
}
