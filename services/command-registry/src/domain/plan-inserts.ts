import type { NewId, VersionedCommand } from './command-change';
import type { NormalizedCommand } from './normalized-command';

/** New commands, in the order given: each gets a fresh snowflake as its id, version and named_version. */
export function planInserts(commands: readonly NormalizedCommand[], newId: NewId): VersionedCommand[] {
  return commands.map((command) => {
    const id = newId();
    return { id, version: id, command };
  });
}
