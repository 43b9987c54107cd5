import type { CommandChange, CommandEvent, NewId, VersionedCommand } from './command-change';
import { checkOverwrite } from './check-overwrite';
import { planInserts } from './plan-inserts';
import type { OverwritePlan } from './plan-overwrite';
import { planUpdates } from './plan-updates';

/** A bulk overwrite decided: the scope's commands in the body's order, and the change (null: none). */
export interface BulkWritePlan<T extends VersionedCommand> {
  commands: Array<T | VersionedCommand>;
  change: CommandChange | null;
}

/**
 * PUT: applies planOverwrite's pairing (`plan`) after checkOverwrite's refusals. Unmatched
 * commands are deleted, each announced by `command.deleted` (before any rename); changed
 * ones get new versions (planUpdates); new ones are created and counted toward the quota.
 * A plan that changes nothing writes nothing.
 */
export function planBulkWrite<T extends VersionedCommand>(
  plan: OverwritePlan<T>,
  createsRemaining: number,
  newId: NewId,
): BulkWritePlan<T> {
  checkOverwrite(plan, createsRemaining);
  if (plan.isNoop) return { commands: plan.items.map((p) => p.match as T), change: null };
  const update = planUpdates(
    plan.changed.map((p) => [p.match as T, p.item.command] as const),
    newId,
  );
  const created = planInserts(
    plan.fresh.map((p) => p.item.command),
    newId,
  );
  const updatedById = new Map(update.updated.map((c) => [c.id, c]));
  const createdByItem = new Map(plan.fresh.map((p, i) => [p, created[i] as VersionedCommand]));
  const commands = plan.items.map((p) =>
    p.match ? (updatedById.get(p.match.id) ?? p.match) : (createdByItem.get(p) as VersionedCommand),
  );
  const deleted: CommandEvent[] = plan.removed.map((command) => ({ kind: 'deleted', command }));
  return {
    commands,
    change: {
      deleted: plan.removed.map((c) => c.id),
      updated: update.rows,
      created,
      createsCounted: created.length,
      events: [...deleted, ...update.events],
    },
  };
}
