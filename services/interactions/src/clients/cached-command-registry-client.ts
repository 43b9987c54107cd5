import { LRUCache } from 'lru-cache';
import type { InvocableCommand } from '../domain/invocation/invocation-facts';
import type { CommandRegistryClient } from './command-registry-client';

/** Commands remembered at most (a command's JSON is a few kB at most). */
const MAX_COMMANDS = 10_000;

/**
 * command-registry's answers to "which command does this invocation name", remembered by
 * (application, guild, command) until command-registry announces that one of the
 * application's scopes changed (`command-registry.scope.changed`, which every replica reads
 * through its own consumer: see `followCommandChanges`). No expiry by time: an entry is
 * dropped by the event, so it is never stale past it.
 *
 * Used only while the event feed is live (`isLive`): before its consumer exists, or while
 * NATS is away, every lookup asks command-registry, and the entries are dropped (events
 * missed meanwhile must not be trusted to). A lookup that overlaps a drop of its
 * application is answered but not remembered (it may have read the old commands).
 * Unknown commands are not remembered (rare, and creating one must be seen at once). An
 * invocation naming another version than the one remembered asks command-registry (and
 * remembers its answer): an edit is seen at once by the client that knows of it; the
 * event makes every other invocation see it (the old version refused, a deleted command
 * unknown).
 */
export class CachedCommandRegistryClient implements CommandRegistryClient {
  private readonly entries = new LRUCache<string, InvocableCommand>({ max: MAX_COMMANDS });
  /** Drops by application (and `epoch` for every drop of everything): what a lookup in flight checks. */
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly registry: CommandRegistryClient,
    private readonly isLive: () => boolean,
  ) {}

  async invocableCommand(
    applicationId: string,
    guildId: string | null,
    commandId: string,
    sentVersion?: string,
  ): Promise<InvocableCommand | undefined> {
    if (!this.isLive()) {
      this.dropAll();
      return this.registry.invocableCommand(applicationId, guildId, commandId);
    }
    const key = `${applicationId}/${guildId ?? ''}/${commandId}`;
    const hit = this.entries.get(key);
    // A client holding another version than the one remembered has likely seen an edit
    // whose event has not reached this replica yet: command-registry decides.
    if (hit && (sentVersion === undefined || String(hit.command.version) === sentVersion)) {
      this.hits++;
      return structuredClone(hit);
    }
    this.misses++;
    const generation = this.generationOf(applicationId);
    const found = await this.registry.invocableCommand(applicationId, guildId, commandId);
    if (found && this.isLive() && this.generationOf(applicationId) === generation) {
      this.entries.set(key, structuredClone(found));
    }
    return found;
  }

  /** Forgets the application's commands (every scope: a guild's lookup may have found a global one). */
  dropApplication(applicationId: string): void {
    this.generations.set(applicationId, (this.generations.get(applicationId) ?? 0) + 1);
    const prefix = `${applicationId}/`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** Forgets everything (the event feed was interrupted). */
  dropAll(): void {
    if (this.entries.size === 0) return;
    this.epoch++;
    this.entries.clear();
  }

  /** Lookups answered from memory and from command-registry since start (for tests and metrics). */
  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hits, misses: this.misses, size: this.entries.size };
  }

  private generationOf(applicationId: string): string {
    return `${this.epoch}/${this.generations.get(applicationId) ?? 0}`;
  }
}
