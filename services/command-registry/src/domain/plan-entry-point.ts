import type { CommandChange, NewId, VersionedCommand } from './command-change';
import type { NormalizedCommand } from './normalized-command';
import { planInserts } from './plan-inserts';

/** EnsureEntryPoint decided: the app's entry point, whether it is new, and the change (null: none). */
export interface EntryPointPlan<T extends VersionedCommand> {
  command: T | VersionedCommand;
  created: boolean;
  change: CommandChange | null;
}

/**
 * An EMBEDDED app's default entry point: created when the app has none (`existing`: its
 * global command of that type), kept as it is otherwise. Not counted toward the daily quota.
 */
export function planEntryPoint<T extends VersionedCommand>(
  existing: T | undefined,
  command: NormalizedCommand,
  newId: NewId,
): EntryPointPlan<T> {
  if (existing) return { command: existing, created: false, change: null };
  const created = planInserts([command], newId);
  const change = { deleted: [], updated: [], created, createsCounted: 0, events: [] };
  return { command: created[0] as VersionedCommand, created: true, change };
}
