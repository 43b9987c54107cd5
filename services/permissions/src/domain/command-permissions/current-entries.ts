import type { GuildCommandPermissions } from './command-permission-model';

/** A stored entry and the command name it was written for (null: the app-level entry). */
export interface EntryWithName extends GuildCommandPermissions {
  commandName: string | null;
}

/**
 * The entries that still apply: the app-level one, and those whose command still exists
 * under the name it had when they were written. Deleting or renaming a command deletes
 * its permissions (facts §16); this is what makes that visible at once, before the
 * registry's event has removed the rows.
 */
export function currentEntries<T extends EntryWithName>(
  entries: readonly T[],
  currentNames: ReadonlyMap<string, { name: string }>,
): T[] {
  return entries.filter((e) => e.commandName === null || currentNames.get(e.id)?.name === e.commandName);
}
