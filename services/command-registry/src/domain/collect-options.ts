import { collectOptionConstraints } from './collect-option-constraints';
import { ApplicationCommandOptionType as T, isStructuralOptionType } from './command-enums';
import { ErrorCode } from './error-codes';
import type { ErrorPath, FormErrors } from '@acs/validation';
import { MAX_OPTIONS_PER_LEVEL } from './limits';
import type { Localizations } from '@acs/validation';
import type { NormalizedOption } from './normalized-command';
import { readLocalizations } from './read-localizations';
import {
  addChoicesError,
  checkMaxItems,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readList,
  readModel,
} from '@acs/validation';
import { CHAT_INPUT_NAME_RULE, DESCRIPTION_RULE, checkText, readRequiredText } from './text-rules';

/** Where an `options` array sits: on the command, in a SUB_COMMAND_GROUP, or in a SUB_COMMAND. */
export type OptionLevel = 'command' | 'group' | 'subcommand';

const OPTION_TYPES = Object.values(T);

// What the level checks need from an option, read even when other fields of it failed.
interface OptionSummary {
  option?: NormalizedOption;
  type?: number;
  name?: string;
  nameLocalizations?: Localizations | null;
  required: boolean;
}

/**
 * Validates one `options` array and, recursively, its children: ≤ 25 items, names unique
 * (localized names too), required before optional, and the nesting rules: the command level
 * holds either SUB_COMMAND/SUB_COMMAND_GROUP or value options, a group holds only
 * SUB_COMMANDs, a subcommand only value options. Absent means none. Returns undefined when
 * an error was recorded.
 */
export function collectOptions(
  value: unknown,
  level: OptionLevel,
  errors: FormErrors,
  path: ErrorPath,
): NormalizedOption[] | undefined {
  if (isAbsent(value)) return [];
  const list = readList(value, errors, path);
  if (!list) return undefined;
  // Too many items: nothing else is checked (the checks below compare items pairwise).
  if (!checkMaxItems(list, MAX_OPTIONS_PER_LEVEL, errors, path)) return undefined;
  const before = errors.count;
  const summaries = list.map((item, index) => collectOption(item, level, errors, [...path, index]));

  if (level === 'command') {
    const types = summaries.flatMap((s) => (s.type === undefined ? [] : [s.type]));
    if (types.some(isStructuralOptionType) && types.some((t) => !isStructuralOptionType(t))) {
      errors.add(
        path,
        ErrorCode.APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
        'Sub-command and sub-command group option types are mutually exclusive to all other types',
      );
    }
  }
  checkRequiredFirst(summaries, errors, path);
  checkUniqueNames(summaries, errors, path);

  if (errors.count !== before) return undefined;
  return summaries.flatMap((s) => (s.option ? [s.option] : []));
}

// D: "Required options must be listed before optional options"; reported once, on the first offender.
function checkRequiredFirst(summaries: OptionSummary[], errors: FormErrors, path: ErrorPath): void {
  let seenOptional = false;
  for (const [index, summary] of summaries.entries()) {
    if (summary.type === undefined || isStructuralOptionType(summary.type)) continue;
    if (!summary.required) seenOptional = true;
    else if (seenOptional) {
      errors.add(
        [...path, index],
        ErrorCode.APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID,
        'Required options must be placed before non-required options',
      );
      return;
    }
  }
}

// D: option names are unique per array; a localized name must differ from the other options'
// default names and from their names in the same locale.
function checkUniqueNames(summaries: OptionSummary[], errors: FormErrors, path: ErrorPath): void {
  const message = 'Option names must be unique';
  summaries.forEach((summary, index) => {
    if (summary.name !== undefined && summaries.slice(0, index).some((s) => s.name === summary.name)) {
      errors.add(
        [...path, index, 'name'],
        ErrorCode.APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS,
        message,
      );
    }
    for (const [locale, localized] of Object.entries(summary.nameLocalizations ?? {})) {
      const clashes = summaries.some(
        (other, otherIndex) =>
          otherIndex !== index &&
          (other.name === localized ||
            (otherIndex < index &&
              (other.nameLocalizations as Record<string, string> | null)?.[locale] === localized)),
      );
      if (clashes) {
        errors.add(
          [...path, index, 'name_localizations', locale],
          ErrorCode.APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS,
          message,
        );
      }
    }
  });
}

function collectOption(
  item: unknown,
  level: OptionLevel,
  errors: FormErrors,
  path: ErrorPath,
): OptionSummary {
  const summary: OptionSummary = { required: false };
  const model = readModel(item, errors, path);
  if (!model) return summary;
  const at = (key: string): ErrorPath => [...path, key];

  // `type` selects the model; without a valid one nothing else can be checked.
  const rawType = getField(model, 'type');
  if (isAbsent(rawType)) {
    errors.add(path, ErrorCode.TAG_FIELD_MISSING, 'Field "type" is required to determine the model type.');
    return summary;
  }
  const type = readInteger(rawType, errors, at('type'));
  if (type === undefined) return summary;
  if (!(OPTION_TYPES as number[]).includes(type)) {
    addChoicesError(OPTION_TYPES, errors, at('type'));
    return summary;
  }
  summary.type = type;
  const before = errors.count;
  const isPlacedRight = checkPlacement(type, level, errors, at('type'));

  const name = readRequiredText(getField(model, 'name'), CHAT_INPUT_NAME_RULE, errors, at('name'));
  summary.name = name;
  const nameLocalizations = readLocalizations(
    getField(model, 'name_localizations'),
    name,
    (text, p) => checkText(text, CHAT_INPUT_NAME_RULE, errors, p),
    errors,
    at('name_localizations'),
  );
  summary.nameLocalizations = nameLocalizations;
  const description = readRequiredText(
    getField(model, 'description'),
    DESCRIPTION_RULE,
    errors,
    at('description'),
  );
  const descriptionLocalizations = readLocalizations(
    getField(model, 'description_localizations'),
    description,
    (text, p) => checkText(text, DESCRIPTION_RULE, errors, p),
    errors,
    at('description_localizations'),
  );

  const rawRequired = getField(model, 'required');
  if (!isAbsent(rawRequired) && readBoolean(rawRequired, errors, at('required')) === true) {
    if (isStructuralOptionType(type)) {
      errors.add(
        at('required'),
        ErrorCode.APPLICATION_COMMAND_REQUIRED_INVALID,
        'Required cannot be configured for this type of option',
      );
    } else summary.required = true;
  }

  const constraints = collectOptionConstraints(model, type, errors, path);
  const children = isPlacedRight
    ? collectChildren(getField(model, 'options'), type, errors, at('options'))
    : [];

  if (errors.count !== before || name === undefined || description === undefined || !children) return summary;
  const { choices, ...otherConstraints } = constraints;
  summary.option = {
    type: type as T,
    name,
    ...(nameLocalizations ? { name_localizations: nameLocalizations } : {}),
    description,
    ...(descriptionLocalizations ? { description_localizations: descriptionLocalizations } : {}),
    ...(summary.required ? { required: true } : {}),
    ...(choices ? { choices } : {}),
    ...(children.length > 0 ? { options: children } : {}),
    ...otherConstraints,
  };
  return summary;
}

// Nesting (D: §Subcommands and Subcommand Groups): group → sub-command → value options, no deeper.
function checkPlacement(type: number, level: OptionLevel, errors: FormErrors, path: ErrorPath): boolean {
  if (level === 'group' && type !== T.SUB_COMMAND) {
    errors.add(
      path,
      ErrorCode.APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
      'Sub-command groups can only contain SUB_COMMAND (1) options',
    );
    return false;
  }
  if (level === 'subcommand' && isStructuralOptionType(type)) {
    errors.add(
      path,
      ErrorCode.APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
      'Sub-commands can only contain value options (types 3-11); nesting stops at group > sub-command > option',
    );
    return false;
  }
  return true;
}

function collectChildren(
  raw: unknown,
  type: number,
  errors: FormErrors,
  path: ErrorPath,
): NormalizedOption[] | undefined {
  if (type === T.SUB_COMMAND_GROUP) {
    if (isAbsent(raw)) {
      errors.add(path, ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
      return undefined;
    }
    if (Array.isArray(raw) && raw.length === 0) {
      errors.add(path, ErrorCode.BASE_TYPE_MIN_LENGTH, 'Must be 1 or more in length.');
      return undefined;
    }
    return collectOptions(raw, 'group', errors, path);
  }
  if (type === T.SUB_COMMAND) return collectOptions(raw, 'subcommand', errors, path);
  if (!isAbsent(raw) && !(Array.isArray(raw) && raw.length === 0)) {
    errors.add(
      path,
      ErrorCode.APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
      'Only SUB_COMMAND (1) and SUB_COMMAND_GROUP (2) options can have options',
    );
    return undefined;
  }
  return [];
}
