import { LRUCache } from 'lru-cache';

/**
 * Answers of a peer remembered per application (keys `<application id>/…`), until an event
 * says they changed: `dropApplication` for one application, `dropAll` for everything (an
 * interrupted event feed, a change of every answer). Nothing expires by time here: what
 * an entry may still be used for is its owner's `usable` check.
 *
 * A lookup that overlaps a drop of its application (or of everything) is answered but not
 * remembered: it may have read the old facts. Entries go in and out as copies, so no
 * caller can change what another is given.
 */
export class ApplicationMemo<T extends object> {
  private readonly entries: LRUCache<string, T>;
  /** Drops by application (and `epoch` for every drop of everything): what a lookup in flight checks. */
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private hits = 0;
  private misses = 0;

  constructor(maxEntries: number) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** A copy of the entry at `key` when there is one and `usable` accepts it. */
  get(key: string, usable: (entry: T) => boolean = () => true): T | undefined {
    const entry = this.entries.get(key);
    if (entry && usable(entry)) {
      this.hits++;
      return structuredClone(entry);
    }
    this.misses++;
    return undefined;
  }

  /**
   * Asks `load`, and remembers `entryOf` its answer at `key` (undefined: nothing to
   * remember) unless the application was dropped meanwhile or `mayRemember` says no now.
   */
  async load<R>(
    applicationId: string,
    key: string,
    load: () => Promise<R>,
    entryOf: (answer: R) => T | undefined,
    mayRemember: () => boolean,
  ): Promise<R> {
    const generation = this.generationOf(applicationId);
    const answer = await load();
    const entry = entryOf(answer);
    if (entry !== undefined && mayRemember() && this.generationOf(applicationId) === generation) {
      this.entries.set(key, structuredClone(entry));
    }
    return answer;
  }

  /** Forgets every answer about the application. */
  dropApplication(applicationId: string): void {
    this.generations.set(applicationId, (this.generations.get(applicationId) ?? 0) + 1);
    const prefix = `${applicationId}/`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** Forgets everything, also what lookups in flight are about to remember. */
  dropAll(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** Lookups answered from memory and from the peer since start (for tests and metrics). */
  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hits, misses: this.misses, size: this.entries.size };
  }

  private generationOf(applicationId: string): string {
    return `${this.epoch}/${this.generations.get(applicationId) ?? 0}`;
  }
}
