import type { NormalizedCommand } from './normalized-command';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// JSON equality: key order does not matter, array order does, an undefined key equals a missing one.
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]))
    );
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (!jsonEqual(a[key], b[key])) return false;
  }
  return true;
}

/**
 * The top-level fields of the command object that differ between two normalized commands
 * (`description`, `options`, `name_localizations`, …), sorted; empty when they are the
 * same definition. The one comparison behind commandsEqual and the dry run's `changed_fields`.
 */
export function changedFields(a: NormalizedCommand, b: NormalizedCommand): string[] {
  const before = a as unknown as Record<string, unknown>;
  const after = b as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !jsonEqual(before[key], after[key])).sort();
}

/**
 * Whether two normalized commands are the same definition, so that an upsert or a bulk
 * overwrite with an identical body keeps the command's `version`.
 */
export function commandsEqual(a: NormalizedCommand, b: NormalizedCommand): boolean {
  return changedFields(a, b).length === 0;
}
