import type { InvocableCommand } from '../domain/invocation/invocation-facts';
import { ApplicationMemo } from './application-memo';
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
  private readonly memo = new ApplicationMemo<InvocableCommand>(MAX_COMMANDS);

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
      this.memo.dropAll();
      return this.registry.invocableCommand(applicationId, guildId, commandId);
    }
    const key = `${applicationId}/${guildId ?? ''}/${commandId}`;
    // A client holding another version than the one remembered has likely seen an edit
    // whose event has not reached this replica yet: command-registry decides.
    const hit = this.memo.get(
      key,
      (entry) => sentVersion === undefined || String(entry.command.version) === sentVersion,
    );
    if (hit) return hit;
    return this.memo.load(
      applicationId,
      key,
      () => this.registry.invocableCommand(applicationId, guildId, commandId),
      (found) => found,
      this.isLive,
    );
  }

  /** Forgets the application's commands (every scope: a guild's lookup may have found a global one). */
  dropApplication(applicationId: string): void {
    this.memo.dropApplication(applicationId);
  }

  /** Forgets everything (the event feed was interrupted). */
  dropAll(): void {
    this.memo.dropAll();
  }

  /** Lookups answered from memory and from command-registry since start (for tests and metrics). */
  stats(): { hits: number; misses: number; size: number } {
    return this.memo.stats();
  }
}
