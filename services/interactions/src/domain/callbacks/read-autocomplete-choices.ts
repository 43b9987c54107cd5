// The choices of an autocomplete answer (callback 8; D §Autocomplete; OAS
// `ApplicationCommandOptionStringChoice` and its INTEGER and NUMBER siblings): at most 25,
// each `{name 1-100, name_localizations?, value}` whose value has the focused option's type.
import {
  addRequired,
  checkLength,
  checkMaxItems,
  checkRange,
  formatLocaleChoices,
  getField,
  isAbsent,
  isLocale,
  readDict,
  readInteger,
  readList,
  readModel,
  readNumber,
  readString,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';
import { OptionType } from '../interaction-enums';
import { MessageErrorCode as ErrorCode } from '../messages/message-error-codes';

/** At most 25 choices (D §Interaction Callback Data Structure, Autocomplete). */
export const MAX_AUTOCOMPLETE_CHOICES = 25;
/** A choice's name, and each of its localizations: 1 to 100 characters. */
export const MAX_CHOICE_NAME_LENGTH = 100;
/** A STRING choice's value: at most 100 characters (D; the OAS says 6000, the docs win). */
export const MAX_CHOICE_STRING_VALUE_LENGTH = 100;
/** INTEGER values: ±(2^53 − 1). */
const MAX_INTEGER_VALUE = Number.MAX_SAFE_INTEGER;
/** NUMBER values: ±2^53. */
const MAX_NUMBER_VALUE = 2 ** 53;

/** One choice as the user's client receives it. */
export interface AutocompleteChoice {
  name: string;
  name_localizations?: Record<string, string>;
  value: string | number;
}

/**
 * Reads `data.choices` for the focused option's type (STRING 3, INTEGER 4, NUMBER 10;
 * undefined when the interaction names no focused option, which then takes a string or a
 * number). Null reads as no choices.
 */
export function readAutocompleteChoices(
  raw: unknown,
  focusedType: number | undefined,
  errors: FormErrors,
  path: ErrorPath,
): AutocompleteChoice[] | undefined {
  if (isAbsent(raw)) return [];
  const list = readList(raw, errors, path);
  if (!list || !checkMaxItems(list, MAX_AUTOCOMPLETE_CHOICES, errors, path)) return undefined;
  const before = errors.count;
  const choices: AutocompleteChoice[] = [];
  list.forEach((item, index) => {
    const choice = readChoice(item, focusedType, errors, [...path, index]);
    if (choice) choices.push(choice);
  });
  return errors.count === before ? choices : undefined;
}

function readChoice(
  raw: unknown,
  focusedType: number | undefined,
  errors: FormErrors,
  path: ErrorPath,
): AutocompleteChoice | undefined {
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const before = errors.count;
  const name = readName(getField(model, 'name'), errors, [...path, 'name']);
  const localizations = readNameLocalizations(model, errors, [...path, 'name_localizations']);
  const value = readValue(getField(model, 'value'), focusedType, errors, [...path, 'value']);
  if (errors.count !== before || name === undefined || value === undefined) return undefined;
  return localizations ? { name, name_localizations: localizations, value } : { name, value };
}

function readName(raw: unknown, errors: FormErrors, path: ErrorPath): string | undefined {
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  const text = readString(raw, errors, path);
  return text !== undefined && checkLength(text, 1, MAX_CHOICE_NAME_LENGTH, errors, path) ? text : undefined;
}

// Keys are supported locales (BASE_TYPE_CHOICES at the key, as for command localizations);
// null values are dropped.
function readNameLocalizations(
  model: JsonObject,
  errors: FormErrors,
  path: ErrorPath,
): Record<string, string> | undefined {
  const raw = getField(model, 'name_localizations');
  if (isAbsent(raw)) return undefined;
  const dict = readDict(raw, errors, path);
  if (!dict) return undefined;
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(dict)) {
    const keyPath = [...path, key];
    if (!isLocale(key)) {
      errors.add(keyPath, ErrorCode.BASE_TYPE_CHOICES, `Value must be one of ${formatLocaleChoices()}.`);
      continue;
    }
    if (isAbsent(value)) continue;
    const text = readName(value, errors, keyPath);
    if (text !== undefined) Object.defineProperty(result, key, { value: text, enumerable: true });
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

function readValue(
  raw: unknown,
  focusedType: number | undefined,
  errors: FormErrors,
  path: ErrorPath,
): string | number | undefined {
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  const type = focusedType ?? (typeof raw === 'number' ? OptionType.NUMBER : OptionType.STRING);
  if (type === OptionType.INTEGER) {
    const n = readInteger(raw, errors, path);
    return n !== undefined && checkRange(n, -MAX_INTEGER_VALUE, MAX_INTEGER_VALUE, 'int', errors, path)
      ? n
      : undefined;
  }
  if (type === OptionType.NUMBER) {
    const n = readNumber(raw, errors, path);
    return n !== undefined && checkRange(n, -MAX_NUMBER_VALUE, MAX_NUMBER_VALUE, 'float', errors, path)
      ? n
      : undefined;
  }
  const text = readString(raw, errors, path);
  return text !== undefined && checkLength(text, 0, MAX_CHOICE_STRING_VALUE_LENGTH, errors, path)
    ? text
    : undefined;
}
