/**
 * Rendered command lists by scope and view, each tagged with the scope's revision. A
 * reader asks the database only for the revision (one indexed row) and re-renders only
 * when it moved, so every replica stays exact without any invalidation messages.
 */
export class ListCache {
  private readonly entries = new Map<string, { revision: string; json: string }>();

  constructor(private readonly maxEntries = 5000) {}

  get(key: string, revision: string): string | undefined {
    const entry = this.entries.get(key);
    return entry?.revision === revision ? entry.json : undefined;
  }

  set(key: string, revision: string, json: string): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { revision, json });
  }
}
