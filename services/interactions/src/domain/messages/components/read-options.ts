import {
  addRequired,
  checkItemCount,
  getField,
  isAbsent,
  readList,
  readModel,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import { MAX_OPTION_TEXT_LENGTH } from './component-limits';
import { readEmoji, readOptionalBoolean, readOptionalText, readRequiredText } from './component-walk';

/** An option of a string select, radio group or checkbox group, as echoed. */
export interface ComponentOption extends JsonObject {
  label: string;
  value: string;
  default: boolean;
}

/**
 * The `options` of a string select, radio group or checkbox group: `min`-`max` options of
 * label and value (1-100 characters each), an optional description (≤ 100), `default`, and
 * for selects an emoji; values unique (SELECT_COMPONENT_OPTION_VALUE_DUPLICATED at the repeat).
 */
export function readOptions(
  model: JsonObject,
  bounds: { min: number; max: number; emoji: boolean },
  errors: FormErrors,
  path: ErrorPath,
): ComponentOption[] | undefined {
  const raw = getField(model, 'options');
  const at = [...path, 'options'];
  if (isAbsent(raw)) {
    addRequired(errors, at);
    return undefined;
  }
  const list = readList(raw, errors, at);
  if (!list || !checkItemCount(list, bounds.min, bounds.max, errors, at)) return undefined;
  const before = errors.count;
  const values = new Set<string>();
  const options = list.map((item, index) => {
    const option = readOption(item, bounds.emoji, errors, [...at, index]);
    if (option && values.has(option.value)) {
      errors.add(
        [...at, index, 'value'],
        ErrorCode.SELECT_COMPONENT_OPTION_VALUE_DUPLICATED,
        'Select component option values must be unique',
      );
    }
    if (option) values.add(option.value);
    return option;
  });
  return errors.count === before ? (options as ComponentOption[]) : undefined;
}

function readOption(raw: unknown, withEmoji: boolean, errors: FormErrors, path: ErrorPath) {
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const before = errors.count;
  const label = readRequiredText(model, 'label', 1, MAX_OPTION_TEXT_LENGTH, errors, path);
  const value = readRequiredText(model, 'value', 1, MAX_OPTION_TEXT_LENGTH, errors, path);
  const description = readOptionalText(model, 'description', MAX_OPTION_TEXT_LENGTH, errors, path);
  const isDefault = readOptionalBoolean(model, 'default', false, errors, path);
  const rawEmoji = withEmoji ? getField(model, 'emoji') : undefined;
  const emoji = isAbsent(rawEmoji) ? null : readEmoji(rawEmoji, errors, [...path, 'emoji']);
  if (errors.count !== before) return undefined;
  const option: ComponentOption = { label: label as string, value: value as string, default: !!isDefault };
  if (description) option.description = description;
  if (emoji) option.emoji = emoji;
  return option;
}

/** How many options are marked `default`. */
export function countDefaults(options: readonly ComponentOption[]): number {
  return options.filter((option) => option.default).length;
}
