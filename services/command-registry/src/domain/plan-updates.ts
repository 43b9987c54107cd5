import type { CommandEvent, CommandUpdate, NewId, VersionedCommand } from './command-change';
import type { NormalizedCommand } from './normalized-command';

/** Commands given new contents: the rows to write, the commands as they become, their events. */
export interface PlannedUpdates<T extends VersionedCommand> {
  rows: CommandUpdate[];
  /** Each command after its update (new version and contents), in the order given. */
  updated: T[];
  events: CommandEvent[];
}

/**
 * Versions of an update: every changed command gets a new version (a fresh snowflake, taken
 * in the order given); a rename moves `named_version` to it and announces `command.renamed`
 * with the new name and version (permissions deletes the renamed command's permissions).
 */
export function planUpdates<T extends VersionedCommand>(
  changes: ReadonlyArray<readonly [T, NormalizedCommand]>,
  newId: NewId,
): PlannedUpdates<T> {
  const planned: PlannedUpdates<T> = { rows: [], updated: [], events: [] };
  for (const [current, command] of changes) {
    const next: T = { ...current, version: newId(), command };
    const renamed = current.command.name !== command.name;
    planned.updated.push(next);
    planned.rows.push({ id: next.id, version: next.version, command, renamed });
    if (renamed) planned.events.push({ kind: 'renamed', command: next, previousName: current.command.name });
  }
  return planned;
}
