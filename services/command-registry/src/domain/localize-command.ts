import { isLocale, pickLocalization, type Locale, type Localizations } from '@acs/validation';
import type { NormalizedChoice, NormalizedCommand, NormalizedOption } from './normalized-command';

/** A choice as list endpoints return it without `with_localizations`. */
export type LocalizedChoice = Omit<NormalizedChoice, 'name_localizations'> & { name_localized?: string };

/** An option as list endpoints return it without `with_localizations`. */
export type LocalizedOption = Omit<
  NormalizedOption,
  'name_localizations' | 'description_localizations' | 'choices' | 'options'
> & {
  name_localized?: string;
  description_localized?: string;
  choices?: LocalizedChoice[];
  options?: LocalizedOption[];
};

/** A command (with whatever stored fields it carries, e.g. id and version) in the localized view. */
export type LocalizedCommand<C extends NormalizedCommand = NormalizedCommand> = Omit<
  C,
  'name_localizations' | 'description_localizations' | 'options'
> & {
  name_localized?: string;
  description_localized?: string;
  options?: LocalizedOption[];
};

type Entity = Record<string, unknown>;

// Rebuilds an object in its key order: the dictionaries go, `name_localized` follows `name` and
// `description_localized` follows `description` when the requester's locale (or its fallback) has one.
function localizeEntity(entity: Entity, locale: Locale | undefined): Entity {
  const result: Entity = {};
  for (const [key, value] of Object.entries(entity)) {
    if (key === 'name_localizations' || key === 'description_localizations') continue;
    if (key === 'options' && Array.isArray(value)) {
      result[key] = value.map((option: Entity) => localizeEntity(option, locale));
      continue;
    }
    if (key === 'choices' && Array.isArray(value)) {
      result[key] = value.map((choice: Entity) => localizeEntity(choice, locale));
      continue;
    }
    result[key] = value;
    if (key === 'name' || key === 'description') {
      const localized = pickLocalization(
        entity[`${key}_localizations`] as Localizations | null | undefined,
        locale,
      );
      if (localized !== undefined) result[`${key}_localized`] = localized;
    }
  }
  return result;
}

/**
 * The view GET list endpoints return without `?with_localizations=true` (D: §Retrieving
 * localized commands): every `name_localizations`/`description_localizations` is removed, and
 * `name_localized`/`description_localized` (choices: `name_localized`) are added only where
 * the requester's locale, or its fallback (en-US↔en-GB, es-419→es-ES), has a value. An
 * unknown or missing locale yields no localized fields.
 */
export function localizeCommand<C extends NormalizedCommand>(
  command: C,
  locale: string | null | undefined,
): LocalizedCommand<C> {
  const resolved = locale && isLocale(locale) ? locale : undefined;
  return localizeEntity(command as unknown as Entity, resolved) as LocalizedCommand<C>;
}
