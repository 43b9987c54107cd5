/**
 * Credentials oauth answered "unknown or revoked" (its 401), remembered for a few seconds
 * so that a client repeating a bad token does not cost a ResolveToken call per request.
 * Safe to remember because oauth makes every token itself from fresh random bytes: one it
 * does not know cannot become valid later, and a revoked or expired one stays dead. Only
 * that answer belongs here, never a failed call (unreachable oauth, deadline). Bounded:
 * past `maxEntries` the oldest entry is forgotten.
 */
export class UnknownTokenCache {
  // Key → expiry; Maps iterate in insertion order, so the first entry is the oldest.
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether oauth said, less than the TTL ago, that this credential is unknown. */
  has(key: string): boolean {
    const expiresAt = this.expiries.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > this.now()) return true;
    this.expiries.delete(key);
    return false;
  }

  /** Remembers oauth's "unknown or revoked" answer for a credential. */
  add(key: string): void {
    if (this.ttlSeconds <= 0) return;
    this.expiries.delete(key);
    if (this.expiries.size >= this.maxEntries) {
      const oldest = this.expiries.keys().next();
      if (!oldest.done) this.expiries.delete(oldest.value);
    }
    this.expiries.set(key, this.now() + this.ttlSeconds * 1000);
  }
}
