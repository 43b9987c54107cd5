// The inputs of a modal (D §Text Input, §File Upload, §Radio Group, §Checkbox Group,
// §Checkbox); selects are read by readSelect.
import {
  checkItemCount,
  getField,
  isAbsent,
  readList,
  readString,
  checkLength,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import {
  MAX_GROUP_OPTIONS,
  MAX_LABEL_LENGTH,
  MAX_TEXT_INPUT_LENGTH,
  MAX_TEXT_INPUT_PLACEHOLDER_LENGTH,
  MAX_UPLOAD_FILES,
  MAX_UPLOAD_FILE_TYPES,
  MIN_RADIO_OPTIONS,
} from './component-limits';
import { TEXT_INPUT_STYLES } from './component-types';
import {
  readCustomId,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalText,
  readRequiredChoice,
  readRequiredText,
  type ComponentWalk,
} from './component-walk';
import { checkValueBounds } from './check-value-bounds';
import { countDefaults, readOptions } from './read-options';

/** What a file upload's `file_types` may name: a kind, or a dot-prefixed extension. */
const FILE_TYPE = /^(image|video|audio|\.[A-Za-z0-9]{1,16})$/;

/**
 * A text input: `custom_id`, `style` 1 or 2, `min_length` 0-4000 ≤ `max_length` 1-4000,
 * `required` (default true), `value` ≤ 4000 (within max_length), `placeholder` ≤ 100. In
 * the deprecated action row it carries its own `label` (required, ≤ 45); in a label the
 * label is the wrapper's, and its own is optional.
 */
export function readTextInput(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
  inRow: boolean,
): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const customId = readCustomId(model, walk, path);
  const style = readRequiredChoice(model, 'style', TEXT_INPUT_STYLES, errors, path);
  const label = inRow
    ? readRequiredText(model, 'label', 1, MAX_LABEL_LENGTH, errors, path)
    : readOptionalText(model, 'label', MAX_LABEL_LENGTH, errors, path);
  const minLength = readOptionalInteger(model, 'min_length', 0, MAX_TEXT_INPUT_LENGTH, null, errors, path);
  const maxLength = readOptionalInteger(model, 'max_length', 1, MAX_TEXT_INPUT_LENGTH, null, errors, path);
  const required = readOptionalBoolean(model, 'required', true, errors, path);
  const value = readOptionalText(model, 'value', MAX_TEXT_INPUT_LENGTH, errors, path);
  const placeholder = readOptionalText(model, 'placeholder', MAX_TEXT_INPUT_PLACEHOLDER_LENGTH, errors, path);
  if (typeof minLength === 'number' && typeof maxLength === 'number' && minLength > maxLength) {
    errors.add(
      [...path, 'min_length'],
      ErrorCode.TEXT_INPUT_LENGTH_INVALID,
      'min_length must be less than or equal to max_length',
    );
  }
  if (typeof value === 'string' && typeof maxLength === 'number') {
    checkLength(value, 0, maxLength, errors, [...path, 'value']);
  }
  if (errors.count !== before) return undefined;
  const input: JsonObject = { custom_id: customId as string, style: style as number, required: !!required };
  if (label) input.label = label;
  if (minLength !== null) input.min_length = minLength as number;
  if (maxLength !== null) input.max_length = maxLength as number;
  if (value) input.value = value;
  if (placeholder) input.placeholder = placeholder;
  return input;
}

/**
 * A file upload: `custom_id`, 0-10 files (`min_values` ≤ `max_values`, default 1, `required`
 * needs at least 1), `file_types` ≤ 10 of image, video, audio or ".ext".
 */
export function readFileUpload(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const customId = readCustomId(model, walk, path);
  const bounds = checkValueBounds(model, MAX_UPLOAD_FILES, walk, path);
  const rawTypes = getField(model, 'file_types');
  let fileTypes: string[] | undefined;
  if (!isAbsent(rawTypes)) {
    const at = [...path, 'file_types'];
    const list = readList(rawTypes, errors, at);
    if (list && checkItemCount(list, 0, MAX_UPLOAD_FILE_TYPES, errors, at)) {
      fileTypes = list.map((item, index) => {
        const text = readString(item, errors, [...at, index]);
        if (text !== undefined && !FILE_TYPE.test(text)) {
          errors.add(
            [...at, index],
            ErrorCode.COMPONENT_FIELD_NOT_ALLOWED,
            'A file type is image, video, audio, or an extension such as ".pdf"',
          );
        }
        return text as string;
      });
    }
  }
  if (errors.count !== before || !bounds) return undefined;
  const upload: JsonObject = {
    custom_id: customId as string,
    min_values: bounds.min,
    max_values: bounds.max,
    required: bounds.required,
  };
  if (fileTypes) upload.file_types = fileTypes;
  return upload;
}

/** A radio group: `custom_id`, 2-10 options with at most one default, `required` (default true). */
export function readRadioGroup(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const customId = readCustomId(model, walk, path);
  const options = readOptions(
    model,
    { min: MIN_RADIO_OPTIONS, max: MAX_GROUP_OPTIONS, emoji: false },
    errors,
    path,
  );
  const required = readOptionalBoolean(model, 'required', true, errors, path);
  if (options && countDefaults(options) > 1) {
    errors.add(
      [...path, 'options'],
      ErrorCode.SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES,
      'A radio group has at most one default option',
    );
  }
  if (errors.count !== before) return undefined;
  return { custom_id: customId as string, options: options as JsonObject[], required: !!required };
}

/**
 * A checkbox group: `custom_id`, 1-10 options, `min_values` 0-10 (default 1) ≤
 * `max_values` (default the number of options) ≤ the options, no more defaults than
 * `max_values`, `required` (default true).
 */
export function readCheckboxGroup(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const customId = readCustomId(model, walk, path);
  const options = readOptions(model, { min: 1, max: MAX_GROUP_OPTIONS, emoji: false }, errors, path);
  const bounds = checkValueBounds(model, MAX_GROUP_OPTIONS, walk, path, options?.length ?? 1);
  if (options && bounds) {
    if (bounds.max > options.length) {
      errors.add(
        [...path, 'max_values'],
        ErrorCode.SELECT_COMPONENT_VALUES_INVALID,
        `int value should be less than or equal to ${options.length}.`,
      );
    }
    if (countDefaults(options) > bounds.max) {
      errors.add(
        [...path, 'options'],
        ErrorCode.SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES,
        'The number of default values exceeds max_values',
      );
    }
  }
  if (errors.count !== before || !bounds) return undefined;
  return {
    custom_id: customId as string,
    options: options as JsonObject[],
    min_values: bounds.min,
    max_values: bounds.max,
    required: bounds.required,
  };
}

/** A checkbox: `custom_id` and `default`. */
export function readCheckbox(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const before = walk.errors.count;
  const customId = readCustomId(model, walk, path);
  const isDefault = readOptionalBoolean(model, 'default', false, walk.errors, path);
  if (walk.errors.count !== before) return undefined;
  return { custom_id: customId as string, default: !!isDefault };
}
