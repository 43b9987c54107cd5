// Buttons and selects: the components a user clicks or picks in a message (selects also
// take part in modals, inside a label).
import {
  addRequired,
  checkMaxItems,
  getField,
  isAbsent,
  readEnumSet,
  readList,
  readModel,
  readSnowflake,
  readString,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import {
  MAX_BUTTON_LABEL_LENGTH,
  MAX_BUTTON_URL_LENGTH,
  MAX_SELECT_OPTIONS,
  MAX_SELECT_PLACEHOLDER_LENGTH,
  MAX_SELECT_VALUES,
} from './component-limits';
import { ButtonStyle, ComponentType } from './component-types';
import {
  addFieldNotAllowed,
  hasValue,
  readCustomId,
  readEmoji,
  readOptionalBoolean,
  readOptionalText,
  readRequiredChoice,
  type ComponentWalk,
} from './component-walk';
import { readComponentUrl } from './read-component-url';
import { countDefaults, readOptions } from './read-options';
import { checkValueBounds } from './check-value-bounds';

const BUTTON_STYLES: readonly number[] = Object.values(ButtonStyle);
const LINK_SCHEMES = ['http', 'https', 'discord'];
/** Channel types a channel select may filter on (D:resources/channel.mdx §Channel Types). */
const CHANNEL_TYPES = [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16];
/** The `type` of a select's default values, per select. */
const DEFAULT_VALUE_TYPES: Readonly<Record<number, readonly string[]>> = {
  [ComponentType.USER_SELECT]: ['user'],
  [ComponentType.ROLE_SELECT]: ['role'],
  [ComponentType.MENTIONABLE_SELECT]: ['user', 'role'],
  [ComponentType.CHANNEL_SELECT]: ['channel'],
};

/**
 * A button (D §Button): styles 1-4 need a `custom_id` and take no `url` or `sku_id`; a
 * link (5) needs a `url` and takes no `custom_id`; a premium button (6) needs a `sku_id`
 * and takes no `custom_id`, `label`, `url` or `emoji`. Others show a label or an emoji.
 */
export function readButton(model: JsonObject, walk: ComponentWalk, path: ErrorPath): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const style = readRequiredChoice(model, 'style', BUTTON_STYLES, errors, path);
  const disabled = readOptionalBoolean(model, 'disabled', false, errors, path);
  if (style === undefined) return undefined;
  const button: JsonObject = { style };
  if (style === ButtonStyle.PREMIUM) {
    for (const key of ['custom_id', 'label', 'url', 'emoji']) {
      if (hasValue(model, key)) {
        addFieldNotAllowed(
          errors,
          [...path, key],
          'Premium buttons cannot have custom_id, label, url or emoji',
        );
      }
    }
    const skuId = readRequiredSkuId(model, errors, path);
    if (skuId) button.sku_id = skuId;
  } else {
    readLabelAndEmoji(model, button, errors, path);
    if (hasValue(model, 'sku_id')) {
      addFieldNotAllowed(errors, [...path, 'sku_id'], 'Only premium buttons (style 6) have a sku_id');
    }
    if (style === ButtonStyle.LINK) readLinkTarget(model, button, walk, path);
    else readCustomIdTarget(model, button, walk, path);
  }
  if (disabled) button.disabled = true;
  return errors.count === before ? button : undefined;
}

function readRequiredSkuId(model: JsonObject, errors: FormErrors, path: ErrorPath): string | undefined {
  const raw = getField(model, 'sku_id');
  if (isAbsent(raw)) {
    errors.add(
      [...path, 'sku_id'],
      ErrorCode.BUTTON_COMPONENT_SKU_ID_REQUIRED,
      'Premium buttons need a sku_id',
    );
    return undefined;
  }
  return readSnowflake(raw, errors, [...path, 'sku_id']);
}

function readLabelAndEmoji(model: JsonObject, button: JsonObject, errors: FormErrors, path: ErrorPath): void {
  const label = readOptionalText(model, 'label', MAX_BUTTON_LABEL_LENGTH, errors, path);
  const rawEmoji = getField(model, 'emoji');
  const emoji = isAbsent(rawEmoji) ? null : readEmoji(rawEmoji, errors, [...path, 'emoji']);
  if (label) button.label = label;
  if (emoji) button.emoji = emoji;
  if (label === null && emoji === null) {
    errors.add(
      [...path, 'label'],
      ErrorCode.BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED,
      'A button needs a label or an emoji',
    );
  }
}

function readLinkTarget(model: JsonObject, button: JsonObject, walk: ComponentWalk, path: ErrorPath): void {
  if (hasValue(model, 'custom_id')) {
    walk.errors.add(
      [...path, 'custom_id'],
      ErrorCode.BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE,
      'A custom id and url cannot both be specified',
    );
  }
  const raw = getField(model, 'url');
  if (isAbsent(raw)) {
    walk.errors.add([...path, 'url'], ErrorCode.BUTTON_COMPONENT_URL_REQUIRED, 'Link buttons need a url');
    return;
  }
  const url = readComponentUrl(raw, LINK_SCHEMES, MAX_BUTTON_URL_LENGTH, walk.errors, [...path, 'url']);
  if (url) button.url = url;
}

function readCustomIdTarget(
  model: JsonObject,
  button: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): void {
  if (hasValue(model, 'url')) {
    walk.errors.add(
      [...path, 'url'],
      ErrorCode.BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE,
      'A custom id and url cannot both be specified',
    );
  }
  if (!hasValue(model, 'custom_id')) {
    walk.errors.add(
      [...path, 'custom_id'],
      ErrorCode.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED,
      'A custom id is required',
    );
    return;
  }
  const customId = readCustomId(model, walk, path);
  if (customId) button.custom_id = customId;
}

/**
 * A select (D §String Select, §User Select…): `custom_id`, `placeholder` ≤ 150,
 * `min_values` 0-25 and `max_values` 1-25 (default 1, min ≤ max); a string select's 1-25
 * options (no more defaults than `max_values`, no fewer options than `max_values`); the
 * others' `default_values` of their kind, as many as min/max allow, and a channel select's
 * `channel_types`. `disabled` is a message's only, `required` a modal's only.
 */
export function readSelect(
  type: number,
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const customId = readCustomId(model, walk, path);
  const placeholder = readOptionalText(model, 'placeholder', MAX_SELECT_PLACEHOLDER_LENGTH, errors, path);
  const bounds = checkValueBounds(model, MAX_SELECT_VALUES, walk, path);
  const select: JsonObject = { custom_id: customId as string };
  if (type === ComponentType.STRING_SELECT) {
    const options = readOptions(model, { min: 1, max: MAX_SELECT_OPTIONS, emoji: true }, errors, path);
    if (options && bounds) {
      if (bounds.max > options.length) {
        errors.add(
          [...path, 'options'],
          ErrorCode.SELECT_COMPONENT_VALUES_INVALID,
          `Must be ${bounds.max} or more in length (max_values).`,
        );
      }
      if (countDefaults(options) > bounds.max) addTooManyDefaults(errors, [...path, 'options']);
    }
    select.options = options;
  } else {
    const defaults = readDefaultValues(type, model, errors, path);
    if (defaults && bounds && defaults.length > bounds.max) {
      addTooManyDefaults(errors, [...path, 'default_values']);
    }
    if (defaults) select.default_values = defaults;
    if (type === ComponentType.CHANNEL_SELECT && hasValue(model, 'channel_types')) {
      select.channel_types = readEnumSet(model.channel_types, CHANNEL_TYPES, errors, [
        ...path,
        'channel_types',
      ]);
    }
  }
  if (placeholder) select.placeholder = placeholder;
  if (bounds) Object.assign(select, { min_values: bounds.min, max_values: bounds.max });
  if (walk.surface === 'message') {
    const disabled = readOptionalBoolean(model, 'disabled', false, errors, path);
    if (disabled) select.disabled = true;
  } else {
    if (hasValue(model, 'disabled')) {
      addFieldNotAllowed(errors, [...path, 'disabled'], 'Modals cannot have disabled components');
    }
    if (bounds) select.required = bounds.required;
  }
  return errors.count === before ? select : undefined;
}

function addTooManyDefaults(errors: FormErrors, path: ErrorPath): void {
  errors.add(
    path,
    ErrorCode.SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES,
    'The number of default values exceeds max_values',
  );
}

// `default_values`: `{id, type}` of the select's kind.
function readDefaultValues(
  type: number,
  model: JsonObject,
  errors: FormErrors,
  path: ErrorPath,
): JsonObject[] | undefined {
  const raw = getField(model, 'default_values');
  if (isAbsent(raw)) return undefined;
  const at = [...path, 'default_values'];
  const list = readList(raw, errors, at);
  if (!list || !checkMaxItems(list, MAX_SELECT_VALUES, errors, at)) return undefined;
  const kinds = DEFAULT_VALUE_TYPES[type] ?? [];
  const before = errors.count;
  const values = list.map((item, index) => {
    const itemPath = [...at, index];
    const value = readModel(item, errors, itemPath);
    if (!value) return undefined;
    const rawId = getField(value, 'id');
    const id = isAbsent(rawId)
      ? addRequired(errors, [...itemPath, 'id'])
      : readSnowflake(rawId, errors, [...itemPath, 'id']);
    const rawType = getField(value, 'type');
    const kind = isAbsent(rawType)
      ? addRequired(errors, [...itemPath, 'type'])
      : readString(rawType, errors, [...itemPath, 'type']);
    if (kind !== undefined && !kinds.includes(kind)) {
      errors.add(
        [...itemPath, 'type'],
        ErrorCode.SELECT_COMPONENT_DEFAULT_VALUE_TYPE_INVALID,
        `Value must be one of (${kinds.map((k) => `'${k}'`).join(', ')}).`,
      );
    }
    return { id, type: kind };
  });
  return errors.count === before ? (values as JsonObject[]) : undefined;
}
