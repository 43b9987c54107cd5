import { collectChoices, type ChoiceOptionType } from './collect-choices';
import { ApplicationCommandOptionType as T, CHANNEL_TYPES } from './command-enums';
import { ErrorCode } from './error-codes';
import type { ErrorPath, FormErrors } from '@acs/validation';
import {
  MAX_FILE_TYPE_LENGTH,
  MAX_FILE_TYPES,
  MAX_INTEGER_VALUE,
  MAX_NUMBER_VALUE,
  MAX_STRING_OPTION_LENGTH,
  MIN_INTEGER_VALUE,
  MIN_MAX_LENGTH,
  MIN_MIN_LENGTH,
  MIN_NUMBER_VALUE,
} from './limits';
import type { NormalizedChoice } from './normalized-command';
import {
  checkMaxItems,
  checkRange,
  getField,
  isAbsent,
  readBoolean,
  readEnumSet,
  readInteger,
  readList,
  readNumber,
  readString,
  type JsonObject,
} from '@acs/validation';

/** The value constraints of one option, each present only when set. */
export interface OptionConstraints {
  choices?: NormalizedChoice[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
  file_types?: string[];
}

const FILE_TYPE_GROUPS = ['image', 'video', 'audio'];
const FILE_EXTENSION_PATTERN = /^\.[\p{L}\p{N}_-]+$/u;

function isChoiceType(type: number): type is ChoiceOptionType {
  return type === T.STRING || type === T.INTEGER || type === T.NUMBER;
}

// An empty array or null on the wrong option type is harmless, so only a value that says something counts.
function isSet(value: unknown): boolean {
  return !isAbsent(value) && !(Array.isArray(value) && value.length === 0);
}

/**
 * Reads `choices`, `autocomplete`, `min_length`/`max_length`, `min_value`/`max_value`,
 * `channel_types` and `file_types`, each allowed only on the option types the docs list
 * (D: §Application Command Option Structure).
 */
export function collectOptionConstraints(
  model: JsonObject,
  type: number,
  errors: FormErrors,
  path: ErrorPath,
): OptionConstraints {
  const result: OptionConstraints = {};
  const at = (key: string): ErrorPath => [...path, key];

  const rawChoices = getField(model, 'choices');
  const hasChoices = Array.isArray(rawChoices) && rawChoices.length > 0;
  if (!isAbsent(rawChoices)) {
    if (!isChoiceType(type)) {
      if (isSet(rawChoices))
        errors.add(
          at('choices'),
          ErrorCode.APPLICATION_COMMAND_CHOICES_INVALID,
          'Choices can only be set on STRING (3), INTEGER (4) and NUMBER (10) options',
        );
    } else {
      const list = readList(rawChoices, errors, at('choices'));
      const choices = list && collectChoices(list, type, errors, at('choices'));
      if (choices && choices.length > 0) result.choices = choices;
    }
  }

  const rawChannelTypes = getField(model, 'channel_types');
  if (type !== T.CHANNEL) {
    if (isSet(rawChannelTypes))
      errors.add(
        at('channel_types'),
        ErrorCode.APPLICATION_COMMAND_CHANNEL_TYPES_INVALID,
        'channel_types can only be set on CHANNEL (7) options',
      );
  } else if (!isAbsent(rawChannelTypes)) {
    const channelTypes = readEnumSet(rawChannelTypes, CHANNEL_TYPES, errors, at('channel_types'));
    if (channelTypes && channelTypes.length > 0) result.channel_types = channelTypes;
  }

  Object.assign(result, collectValueBounds(model, type, errors, path));
  Object.assign(result, collectLengthBounds(model, type, errors, path));

  const rawAutocomplete = getField(model, 'autocomplete');
  if (!isAbsent(rawAutocomplete) && readBoolean(rawAutocomplete, errors, at('autocomplete')) === true) {
    if (!isChoiceType(type))
      errors.add(
        at('autocomplete'),
        ErrorCode.APPLICATION_COMMAND_AUTOCOMPLETE_INVALID,
        'Autocomplete can only be enabled on STRING (3), INTEGER (4) and NUMBER (10) options',
      );
    else if (hasChoices)
      errors.add(
        at('autocomplete'),
        ErrorCode.APPLICATION_COMMAND_AUTOCOMPLETE_INVALID,
        'Autocomplete cannot be enabled on an option that has choices; use one or the other',
      );
    else result.autocomplete = true;
  }

  const rawFileTypes = getField(model, 'file_types');
  if (type !== T.ATTACHMENT) {
    if (isSet(rawFileTypes))
      errors.add(
        at('file_types'),
        ErrorCode.APPLICATION_COMMAND_FILE_TYPES_INVALID,
        'file_types can only be set on ATTACHMENT (11) options',
      );
  } else if (!isAbsent(rawFileTypes)) {
    const fileTypes = readFileTypes(rawFileTypes, errors, at('file_types'));
    if (fileTypes && fileTypes.length > 0) result.file_types = fileTypes;
  }

  return result;
}

function collectValueBounds(
  model: JsonObject,
  type: number,
  errors: FormErrors,
  path: ErrorPath,
): Pick<OptionConstraints, 'min_value' | 'max_value'> {
  const result: Pick<OptionConstraints, 'min_value' | 'max_value'> = {};
  for (const key of ['min_value', 'max_value'] as const) {
    const raw = getField(model, key);
    if (isAbsent(raw)) continue;
    const at = [...path, key];
    if (type === T.INTEGER) {
      const n = readInteger(raw, errors, at);
      if (n !== undefined && checkRange(n, MIN_INTEGER_VALUE, MAX_INTEGER_VALUE, 'int', errors, at))
        result[key] = n;
    } else if (type === T.NUMBER) {
      const n = readNumber(raw, errors, at);
      if (n !== undefined && checkRange(n, MIN_NUMBER_VALUE, MAX_NUMBER_VALUE, 'float', errors, at))
        result[key] = n;
    } else {
      errors.add(
        at,
        ErrorCode.APPLICATION_COMMAND_VALUE_INVALID,
        `${key} can only be set on INTEGER (4) and NUMBER (10) options`,
      );
    }
  }
  if (
    result.min_value !== undefined &&
    result.max_value !== undefined &&
    result.min_value > result.max_value
  ) {
    errors.add(
      [...path, 'min_value'],
      ErrorCode.APPLICATION_COMMAND_VALUE_INVALID,
      `min_value (${result.min_value}) must be less than or equal to max_value (${result.max_value})`,
    );
  }
  return result;
}

function collectLengthBounds(
  model: JsonObject,
  type: number,
  errors: FormErrors,
  path: ErrorPath,
): Pick<OptionConstraints, 'min_length' | 'max_length'> {
  const result: Pick<OptionConstraints, 'min_length' | 'max_length'> = {};
  for (const key of ['min_length', 'max_length'] as const) {
    const raw = getField(model, key);
    if (isAbsent(raw)) continue;
    const at = [...path, key];
    if (type !== T.STRING) {
      errors.add(
        at,
        ErrorCode.APPLICATION_COMMAND_LENGTH_INVALID,
        `${key} can only be set on STRING (3) options`,
      );
      continue;
    }
    const min = key === 'min_length' ? MIN_MIN_LENGTH : MIN_MAX_LENGTH;
    const n = readInteger(raw, errors, at);
    if (n !== undefined && checkRange(n, min, MAX_STRING_OPTION_LENGTH, 'int', errors, at)) result[key] = n;
  }
  if (
    result.min_length !== undefined &&
    result.max_length !== undefined &&
    result.min_length > result.max_length
  ) {
    errors.add(
      [...path, 'min_length'],
      ErrorCode.APPLICATION_COMMAND_LENGTH_INVALID,
      `min_length (${result.min_length}) must be less than or equal to max_length (${result.max_length})`,
    );
  }
  return result;
}

// D:reference.mdx §File Type Filtering: a group name or a dot-prefixed extension, lowercased.
function readFileTypes(raw: unknown, errors: FormErrors, path: ErrorPath): string[] | undefined {
  const list = readList(raw, errors, path);
  if (!list) return undefined;
  if (!checkMaxItems(list, MAX_FILE_TYPES, errors, path)) return undefined;
  const before = errors.count;
  const result: string[] = [];
  list.forEach((item, index) => {
    const text = readString(item, errors, [...path, index]);
    if (text === undefined) return;
    const lower = text.length > MAX_FILE_TYPE_LENGTH ? undefined : text.toLowerCase();
    if (lower === undefined || (!FILE_TYPE_GROUPS.includes(lower) && !FILE_EXTENSION_PATTERN.test(lower))) {
      errors.add(
        [...path, index],
        ErrorCode.APPLICATION_COMMAND_FILE_TYPES_INVALID,
        `File type must be 'image', 'video', 'audio' or a dot-prefixed extension such as '.pdf', at most ${MAX_FILE_TYPE_LENGTH} characters`,
      );
      return;
    }
    if (!result.includes(lower)) result.push(lower);
  });
  return errors.count === before ? result : undefined;
}
