import { changedFields } from './commands-equal';
import { ApplicationCommandType } from './command-enums';
import type { NormalizedCommand } from './normalized-command';
import type { BulkCommand } from './validate-bulk';

/** A command the scope holds, as a bulk overwrite matches it. */
export interface ExistingCommand {
  id: string;
  command: NormalizedCommand;
}

/** One item of the overwrite with the command it replaces (none: a new command). */
export interface PlannedItem<T extends ExistingCommand> {
  item: BulkCommand;
  match: T | undefined;
  /** The top-level fields the item changes in its match (changedFields); [] when unchanged or new. */
  changedFields: string[];
}

/**
 * What a bulk overwrite does to a scope, decided before anything is written: the real PUT
 * applies it and the dry run describes it, so that the two cannot disagree.
 */
export interface OverwritePlan<T extends ExistingCommand> {
  /** Every item, in the body's order. */
  items: PlannedItem<T>[];
  /** Existing commands no item matches: deleted. */
  removed: T[];
  /** Items matching a command they change. */
  changed: PlannedItem<T>[];
  /** Items with no match: new commands, each counted toward the daily quota. */
  fresh: PlannedItem<T>[];
  /** Whether `removed` holds the entry point (Discord refuses the whole request: 50240). */
  removesEntryPoint: boolean;
  /** Whether applying it changes nothing: no delete, no update, no create. */
  isNoop: boolean;
}

/**
 * Pairs each bulk item with the existing command it replaces. Every item carrying a known
 * id (of its type) claims that command first, so that an earlier item matched by name
 * cannot take a command a later item names by id; the others then match by name and type.
 * An entry point item matches the scope's entry point whatever its name: there is only one.
 * A matched item is unchanged exactly when changedFields (commandsEqual's comparison) is empty.
 */
export function planOverwrite<T extends ExistingCommand>(
  existing: readonly T[],
  items: readonly BulkCommand[],
): OverwritePlan<T> {
  const byId = new Map(existing.map((c) => [c.id, c]));
  const byName = new Map(existing.map((c) => [nameKey(c.command), c]));
  const entryPoint = existing.find((c) => c.command.type === ApplicationCommandType.PRIMARY_ENTRY_POINT);
  const taken = new Set<string>();
  const claim = (candidate: T | undefined, type: number) => {
    if (!candidate || candidate.command.type !== type || taken.has(candidate.id)) return undefined;
    taken.add(candidate.id);
    return candidate;
  };
  const matchedById = items.map((item) =>
    claim(item.id === null ? undefined : byId.get(item.id), item.command.type),
  );
  const planned = items.map((item, i): PlannedItem<T> => {
    const match =
      matchedById[i] ??
      claim(byName.get(nameKey(item.command)), item.command.type) ??
      claim(entryPoint, item.command.type);
    return { item, match, changedFields: match ? changedFields(match.command, item.command) : [] };
  });
  const removed = existing.filter((c) => !taken.has(c.id));
  const changed = planned.filter((p) => p.match && p.changedFields.length > 0);
  const fresh = planned.filter((p) => !p.match);
  return {
    items: planned,
    removed,
    changed,
    fresh,
    removesEntryPoint: removed.some((c) => c.command.type === ApplicationCommandType.PRIMARY_ENTRY_POINT),
    isNoop: removed.length + changed.length + fresh.length === 0,
  };
}

/** A command as the dry run names it. */
export interface DiffEntry {
  id?: string;
  name: string;
  type: number;
  changed_fields?: string[];
}

/** The dry run's description of a plan (ACS-only): what the real PUT would create, update, delete, keep. */
export interface OverwriteDiff {
  created: DiffEntry[];
  updated: DiffEntry[];
  deleted: DiffEntry[];
  unchanged: DiffEntry[];
}

/**
 * The dry run's answer for a plan: `created` (name, type: no id yet), `updated` (id, the
 * new name, type, changed_fields), `deleted` and `unchanged` (id, name, type), each in the
 * body's order (deleted: in the scope's order).
 */
export function describeOverwrite(plan: OverwritePlan<ExistingCommand>): OverwriteDiff {
  const named = (id: string, command: NormalizedCommand): DiffEntry => ({
    id,
    name: command.name,
    type: command.type,
  });
  return {
    created: plan.fresh.map((p) => ({ name: p.item.command.name, type: p.item.command.type })),
    updated: plan.changed.flatMap((p) =>
      p.match ? [{ ...named(p.match.id, p.item.command), changed_fields: p.changedFields }] : [],
    ),
    deleted: plan.removed.map((c) => named(c.id, c.command)),
    unchanged: plan.items.flatMap((p) =>
      p.match && p.changedFields.length === 0 ? [named(p.match.id, p.match.command)] : [],
    ),
  };
}

function nameKey(command: NormalizedCommand): string {
  return `${command.type}:${command.name}`;
}
