import type { NormalizedCommand } from './normalized-command';

/** A command with its identity and version, as the scope holds it. */
export interface VersionedCommand {
  id: string;
  version: string;
  command: NormalizedCommand;
}

/** A stored command given new contents at a new version. */
export interface CommandUpdate extends VersionedCommand {
  /** Whether the name changes: then `named_version` moves to `version` (else it stays). */
  renamed: boolean;
}

/**
 * What a write announces (the store turns each into its catalog event): a command deleted,
 * or renamed (permissions deletes the command's permissions on either). Creates and other
 * edits announce nothing: Discord sends bots no command events.
 */
export type CommandEvent =
  | { kind: 'deleted'; command: VersionedCommand }
  | { kind: 'renamed'; command: VersionedCommand; previousName: string };

/**
 * The rows a write changes in one scope and the events it emits, in the order the store
 * applies them: deletes, updates, the quota's count, inserts, then the events in order.
 * Applying one also moves the scope's revision (what the list caches follow).
 */
export interface CommandChange {
  /** Ids of the commands deleted. */
  deleted: string[];
  updated: CommandUpdate[];
  /** New commands: id = version = named_version. */
  created: VersionedCommand[];
  /** New commands counted toward the daily create quota (ensureEntryPoint's is not counted). */
  createsCounted: number;
  events: CommandEvent[];
}

/** A fresh snowflake for a new id or version (the store's generator; tests pass a counter). */
export type NewId = () => string;
