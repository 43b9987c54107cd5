import type { NormalizedChoice, NormalizedCommand, NormalizedOption } from './normalized-command';

type Entity = Record<string, unknown>;

// Rebuilds an option or choice in its key order, each dictionary right after its field
// (null when empty), as the real API orders them.
function fillEntity(entity: Entity, fields: readonly ('name' | 'description')[]): Entity {
  const result: Entity = {};
  for (const [key, value] of Object.entries(entity)) {
    if (key === 'name_localizations' || key === 'description_localizations') continue;
    if (key === 'options' && Array.isArray(value)) result[key] = value.map(fillOption);
    else if (key === 'choices' && Array.isArray(value)) result[key] = value.map(fillChoice);
    else result[key] = value;
    if ((key === 'name' || key === 'description') && fields.includes(key)) {
      result[`${key}_localizations`] = entity[`${key}_localizations`] ?? null;
    }
  }
  return result;
}

function fillOption(option: NormalizedOption): Entity {
  return fillEntity(option as unknown as Entity, ['name', 'description']);
}

function fillChoice(choice: NormalizedChoice): Entity {
  return fillEntity(choice as unknown as Entity, ['name']);
}

/**
 * The view of every route that shows the dictionaries (create, get, edit, bulk overwrite,
 * and lists with `?with_localizations=true`): each option carries `name_localizations`
 * and `description_localizations`, each choice `name_localizations`, null when empty, as
 * the real API sends them (and as slash-create compares them when it syncs). Stored
 * commands keep only the dictionaries that have entries.
 */
export function fillLocalizations<C extends NormalizedCommand>(command: C): Entity {
  const result: Entity = {};
  for (const [key, value] of Object.entries(command)) {
    result[key] = key === 'options' && Array.isArray(value) ? value.map(fillOption) : value;
  }
  return result;
}
