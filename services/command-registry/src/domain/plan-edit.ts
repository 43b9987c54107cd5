import type { CommandChange, NewId, VersionedCommand } from './command-change';
import { CommandNameTakenError, UnknownCommandError } from './command-errors';
import { commandsEqual } from './commands-equal';
import type { NormalizedCommand } from './normalized-command';
import { planUpdates } from './plan-updates';

/** What a PATCH needs to know of its scope (read under the scope's lock). */
export interface EditFacts<T extends VersionedCommand> {
  /** The command with the path's id in the scope, if any. */
  current: T | undefined;
  /** The command as the PATCH would make it (the body merged over `current` and validated). */
  next: NormalizedCommand | undefined;
  /** Id of the scope's command holding `next`'s type and name, if any (it may be `current`). */
  nameHolderId: string | undefined;
}

/** A PATCH decided: the command it answers with and the change (null: none). */
export interface EditPlan<T extends VersionedCommand> {
  command: T;
  change: CommandChange | null;
}

/**
 * PATCH: 10063 when the scope has no such command; an edit equal to what is stored changes
 * nothing; a rename onto the name of another command of the same type is 400 / 40041.
 */
export function planEdit<T extends VersionedCommand>(facts: EditFacts<T>, newId: NewId): EditPlan<T> {
  const { current, next } = facts;
  if (!current || !next) throw new UnknownCommandError();
  if (commandsEqual(current.command, next)) return { command: current, change: null };
  if (facts.nameHolderId !== undefined && facts.nameHolderId !== current.id)
    throw new CommandNameTakenError();
  const update = planUpdates([[current, next]], newId);
  const change = { deleted: [], updated: update.rows, created: [], createsCounted: 0, events: update.events };
  return { command: update.updated[0] as T, change };
}
