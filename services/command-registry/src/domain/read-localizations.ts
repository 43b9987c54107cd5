import { ErrorCode } from './error-codes';
import type { ErrorPath, FormErrors } from '@acs/validation';
import { formatLocaleChoices, isLocale, type Localizations } from '@acs/validation';
import { isAbsent, readDict, readString } from '@acs/validation';

/** Checks one localized value at its path; records its own error and answers whether it passed. */
export type LocalizedValueCheck = (value: string, path: ErrorPath) => boolean;

/**
 * Reads a `name_localizations` / `description_localizations` dictionary. Keys must be
 * supported locales (BASE_TYPE_CHOICES at `<field>.<bad key>`); values follow the field's
 * own rule; null values and values equal to the default are dropped (D: §Localization).
 * Returns null when nothing is left, undefined when an error was recorded.
 */
export function readLocalizations(
  value: unknown,
  defaultValue: string | undefined,
  check: LocalizedValueCheck,
  errors: FormErrors,
  path: ErrorPath,
): Localizations | null | undefined {
  if (isAbsent(value)) return null;
  const dict = readDict(value, errors, path);
  if (!dict) return undefined;
  const before = errors.count;
  const result: Localizations = {};
  for (const [key, raw] of Object.entries(dict)) {
    const keyPath = [...path, key];
    if (!isLocale(key)) {
      errors.add(keyPath, ErrorCode.BASE_TYPE_CHOICES, `Value must be one of ${formatLocaleChoices()}.`);
      continue;
    }
    if (isAbsent(raw)) continue;
    const text = readString(raw, errors, keyPath);
    if (text === undefined || !check(text, keyPath)) continue;
    if (text !== defaultValue) result[key] = text;
  }
  if (errors.count !== before) return undefined;
  return Object.keys(result).length > 0 ? result : null;
}
