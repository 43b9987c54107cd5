import type { Principal } from './principal';

interface Entry {
  principal: Principal;
  expiresAt: number;
}

/**
 * A short-lived map from a token's hash to its principal, so that the hot path does not
 * ask oauth on every request. Entries expire after at most the TTL oauth allowed, and are
 * dropped at once when the application's credentials change through this gateway.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Principal | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  set(key: string, principal: Principal, ttlSeconds: number): void {
    if (ttlSeconds <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { principal, expiresAt: this.now() + ttlSeconds * 1000 });
  }

  /** Forgets every token of an application (token reset, flags changed). */
  invalidateApplication(applicationId: string): void {
    for (const [key, entry] of this.entries) {
      if (entry.principal.applicationId === applicationId) this.entries.delete(key);
    }
  }
}
