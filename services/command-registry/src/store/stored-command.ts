import type { NormalizedCommand } from '../domain';

/** A command with its identity, as kept in the `command` table. */
export interface StoredCommand {
  id: string;
  applicationId: string;
  /** '' for a global command. */
  guildId: string;
  version: string;
  command: NormalizedCommand;
}

/** The scope of a command: an application's global commands, or its commands in one guild. */
export interface CommandScope {
  applicationId: string;
  /** '' for global. */
  guildId: string;
}

/** The database's guild_id for a scope: 0 stands for global (no real guild has id 0). */
export function guildColumn(scope: CommandScope): bigint {
  return scope.guildId === '' ? 0n : BigInt(scope.guildId);
}

/** A scope as the first two parameters of a statement: application_id, guild_id. */
export function scopeParams(scope: CommandScope): [string, string] {
  return [scope.applicationId, guildColumn(scope).toString()];
}
