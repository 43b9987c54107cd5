import { ApplicationCommandOptionType } from './command-enums';
import type { ErrorPath, FormErrors } from '@acs/validation';
import {
  MAX_CHOICES,
  MAX_CHOICE_STRING_VALUE_LENGTH,
  MAX_INTEGER_VALUE,
  MAX_NUMBER_VALUE,
  MIN_INTEGER_VALUE,
  MIN_NUMBER_VALUE,
} from './limits';
import type { NormalizedChoice } from './normalized-command';
import { readLocalizations } from './read-localizations';
import {
  addRequired,
  checkLength,
  checkMaxItems,
  checkRange,
  getField,
  isAbsent,
  readInteger,
  readModel,
  readNumber,
  readString,
} from '@acs/validation';
import { CHOICE_NAME_RULE, checkText, readRequiredText } from './text-rules';

/** Option types whose values can be offered as choices. */
export type ChoiceOptionType =
  | typeof ApplicationCommandOptionType.STRING
  | typeof ApplicationCommandOptionType.INTEGER
  | typeof ApplicationCommandOptionType.NUMBER;

/**
 * Validates the `choices` of a STRING / INTEGER / NUMBER option: at most 25, names 1-100
 * (localizations alike), values of the option's type (string ≤ 100, integer in ±(2^53-1),
 * number in ±2^53). Returns undefined when an error was recorded.
 */
export function collectChoices(
  list: unknown[],
  optionType: ChoiceOptionType,
  errors: FormErrors,
  path: ErrorPath,
): NormalizedChoice[] | undefined {
  if (!checkMaxItems(list, MAX_CHOICES, errors, path)) return undefined;
  const before = errors.count;
  const choices: NormalizedChoice[] = [];
  list.forEach((item, index) => {
    const choice = collectChoice(item, optionType, errors, [...path, index]);
    if (choice) choices.push(choice);
  });
  return errors.count === before ? choices : undefined;
}

function collectChoice(
  item: unknown,
  optionType: ChoiceOptionType,
  errors: FormErrors,
  path: ErrorPath,
): NormalizedChoice | undefined {
  const model = readModel(item, errors, path);
  if (!model) return undefined;
  const before = errors.count;

  const name = readRequiredText(getField(model, 'name'), CHOICE_NAME_RULE, errors, [...path, 'name']);

  const nameLocalizations = readLocalizations(
    getField(model, 'name_localizations'),
    name,
    (text, at) => checkText(text, CHOICE_NAME_RULE, errors, at),
    errors,
    [...path, 'name_localizations'],
  );

  const value = readChoiceValue(getField(model, 'value'), optionType, errors, [...path, 'value']);

  if (errors.count !== before || name === undefined || value === undefined) return undefined;
  return nameLocalizations ? { name, name_localizations: nameLocalizations, value } : { name, value };
}

function readChoiceValue(
  raw: unknown,
  optionType: ChoiceOptionType,
  errors: FormErrors,
  path: ErrorPath,
): string | number | undefined {
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  switch (optionType) {
    case ApplicationCommandOptionType.STRING: {
      const text = readString(raw, errors, path);
      return text !== undefined && checkLength(text, 0, MAX_CHOICE_STRING_VALUE_LENGTH, errors, path)
        ? text
        : undefined;
    }
    case ApplicationCommandOptionType.INTEGER: {
      const n = readInteger(raw, errors, path);
      return n !== undefined && checkRange(n, MIN_INTEGER_VALUE, MAX_INTEGER_VALUE, 'int', errors, path)
        ? n
        : undefined;
    }
    case ApplicationCommandOptionType.NUMBER: {
      const n = readNumber(raw, errors, path);
      return n !== undefined && checkRange(n, MIN_NUMBER_VALUE, MAX_NUMBER_VALUE, 'float', errors, path)
        ? n
        : undefined;
    }
  }
}
