import type { CommandChange, NewId, VersionedCommand } from './command-change';
import { checkCommandLimit } from './check-command-limit';
import { checkDailyCreates } from './check-daily-creates';
import { commandsEqual } from './commands-equal';
import type { NormalizedCommand } from './normalized-command';
import { planInserts } from './plan-inserts';
import { planUpdates } from './plan-updates';

/** What a POST upsert needs to know of its scope (read under the scope's lock). */
export interface UpsertFacts<T extends VersionedCommand> {
  /** The command of the same name and type, if any. */
  existing: T | undefined;
  /** Commands of the same type the scope holds. */
  ofType: number;
  /** Creates left in the quota's current window. */
  createsRemaining: number;
}

/** A POST upsert decided: the command it answers with, whether it is new, and the change (null: none). */
export interface UpsertPlan<T extends VersionedCommand> {
  command: T | VersionedCommand;
  created: boolean;
  change: CommandChange | null;
}

/**
 * POST: updates the command of the same name and type (id kept; an identical body changes
 * nothing, not even the version), or creates one within the type's cap (30032) and the daily
 * quota (30034), checked in that order.
 */
export function planUpsert<T extends VersionedCommand>(
  facts: UpsertFacts<T>,
  command: NormalizedCommand,
  newId: NewId,
): UpsertPlan<T> {
  const { existing } = facts;
  if (existing) {
    if (commandsEqual(existing.command, command)) return { command: existing, created: false, change: null };
    const update = planUpdates([[existing, command]], newId);
    const change = {
      deleted: [],
      updated: update.rows,
      created: [],
      createsCounted: 0,
      events: update.events,
    };
    return { command: update.updated[0] as T, created: false, change };
  }
  checkCommandLimit(command.type, facts.ofType);
  checkDailyCreates(facts.createsRemaining, 1);
  const created = planInserts([command], newId);
  const change = { deleted: [], updated: [], created, createsCounted: 1, events: [] };
  return { command: created[0] as VersionedCommand, created: true, change };
}
