import { LRUCache } from 'lru-cache';

/**
 * Rendered command lists by scope and view, each tagged with the scope's revision. A
 * reader asks the database only for the revision (one indexed row) and re-renders only
 * when it moved, so every replica stays exact without any invalidation messages.
 */
export class ListCache {
  private readonly entries: LRUCache<string, { revision: string; json: string }>;

  constructor(maxEntries = 5000) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(key: string, revision: string): string | undefined {
    const entry = this.entries.get(key);
    return entry?.revision === revision ? entry.json : undefined;
  }

  set(key: string, revision: string, json: string): void {
    this.entries.set(key, { revision, json });
  }
}
