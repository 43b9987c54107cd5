import type { GuildCommandPermissions } from './command-permission-model';

/** A stored entry and the command name and version it was written for (name null: the app-level entry). */
export interface EntryWithName extends GuildCommandPermissions {
  commandName: string | null;
  commandVersion: string;
}

/** A command as command-registry knows it now: its name, and the version at which it got that name. */
export interface CurrentCommandName {
  name: string;
  namedVersion: string;
}

/**
 * The entries that still apply: the app-level one, and those whose command still exists
 * under the name it had when they were written, and has not been renamed since. Deleting
 * or renaming a command deletes its permissions (facts §16); this is what makes that
 * visible at once, before the registry's event has removed the rows. The name alone is
 * not enough: after a rename A → B → A the name is the stored one again, but it was set
 * (`namedVersion`) after the entry was written (`commandVersion`). Versions are
 * snowflakes, increasing per command; an edit that keeps the name keeps `namedVersion`.
 */
export function currentEntries<T extends EntryWithName>(
  entries: readonly T[],
  currentNames: ReadonlyMap<string, CurrentCommandName>,
): T[] {
  return entries.filter((e) => e.commandName === null || isWrittenForCurrentName(e, currentNames.get(e.id)));
}

function isWrittenForCurrentName(entry: EntryWithName, current: CurrentCommandName | undefined): boolean {
  return (
    current !== undefined &&
    current.name === entry.commandName &&
    BigInt(current.namedVersion) <= BigInt(entry.commandVersion)
  );
}
