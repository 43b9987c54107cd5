// Layout components: action rows, sections, containers (messages) and labels (modals). Each
// reads its children through `child`, the one reader of any component, so that the
// allowed nesting is stated here and the count and ids stay the walk's.
import {
  addRequired,
  checkItemCount,
  getField,
  isAbsent,
  isJsonObject,
  readList,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import {
  MAX_ACCENT_COLOR,
  MAX_LABEL_DESCRIPTION_LENGTH,
  MAX_LABEL_LENGTH,
  MAX_ROW_WIDTH,
  MAX_SECTION_TEXTS,
} from './component-limits';
import {
  CONTAINER_CHILDREN,
  LABEL_CHILDREN,
  MESSAGE_ROW_CHILDREN,
  MODAL_ROW_CHILDREN,
  SECTION_ACCESSORIES,
  SECTION_CHILDREN,
  SELECT_TYPES,
} from './component-types';
import {
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalText,
  readRequiredText,
  type ComponentWalk,
} from './component-walk';

/** Reads one component of the types `allowed` at `path`. */
export type ChildReader = (
  raw: unknown,
  allowed: readonly number[],
  walk: ComponentWalk,
  path: ErrorPath,
) => JsonObject | undefined;

/** A list of `min`-`max` children of the types `allowed` under `key`. */
export function readChildren(
  model: JsonObject,
  key: string,
  bounds: { min: number; max: number },
  allowed: readonly number[],
  child: ChildReader,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject[] | undefined {
  const raw = getField(model, key);
  const at = [...path, key];
  if (isAbsent(raw)) {
    addRequired(walk.errors, at);
    return undefined;
  }
  const list = readList(raw, walk.errors, at);
  if (!list || !checkItemCount(list, bounds.min, bounds.max, walk.errors, at)) return undefined;
  const before = walk.errors.count;
  const children = list.map((item, index) => child(item, allowed, walk, [...at, index]));
  return walk.errors.count === before ? (children as JsonObject[]) : undefined;
}

/**
 * An action row. In a message: up to 5 buttons or one select (a select is as wide as the
 * row: COMPONENT_LAYOUT_WIDTH_EXCEEDED at each child past the width). In a modal (the
 * deprecated form): one text input.
 */
export function readActionRow(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
  child: ChildReader,
): JsonObject | undefined {
  if (walk.surface === 'modal') {
    const components = readChildren(
      model,
      'components',
      { min: 1, max: 1 },
      MODAL_ROW_CHILDREN,
      child,
      walk,
      path,
    );
    return components && { components };
  }
  const raw = getField(model, 'components');
  if (Array.isArray(raw)) {
    let width = 0;
    raw.forEach((item, index) => {
      const type = isJsonObject(item) ? item.type : undefined;
      width += typeof type === 'number' && SELECT_TYPES.includes(type) ? MAX_ROW_WIDTH : 1;
      if (width > MAX_ROW_WIDTH) {
        walk.errors.add(
          [...path, 'components', index],
          ErrorCode.COMPONENT_LAYOUT_WIDTH_EXCEEDED,
          'The specified component exceeds the maximum width',
        );
      }
    });
  }
  const components = readChildren(
    model,
    'components',
    { min: 1, max: Number.MAX_SAFE_INTEGER },
    MESSAGE_ROW_CHILDREN,
    child,
    walk,
    path,
  );
  return components && { components };
}

/** A section: 1-3 text displays and an accessory, a button or a thumbnail. */
export function readSection(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
  child: ChildReader,
): JsonObject | undefined {
  const before = walk.errors.count;
  const components = readChildren(
    model,
    'components',
    { min: 1, max: MAX_SECTION_TEXTS },
    SECTION_CHILDREN,
    child,
    walk,
    path,
  );
  const rawAccessory = getField(model, 'accessory');
  const accessory = isAbsent(rawAccessory)
    ? addRequired(walk.errors, [...path, 'accessory'])
    : child(rawAccessory, SECTION_ACCESSORIES, walk, [...path, 'accessory']);
  if (walk.errors.count !== before) return undefined;
  return { components: components as JsonObject[], accessory: accessory as JsonObject };
}

/** A container: its children (no container inside), `accent_color` 0-0xFFFFFF or null, `spoiler`. */
export function readContainer(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
  child: ChildReader,
): JsonObject | undefined {
  const before = walk.errors.count;
  const components = readChildren(
    model,
    'components',
    { min: 1, max: Number.MAX_SAFE_INTEGER },
    CONTAINER_CHILDREN,
    child,
    walk,
    path,
  );
  const accent = readOptionalInteger(model, 'accent_color', 0, MAX_ACCENT_COLOR, null, walk.errors, path);
  const spoiler = readOptionalBoolean(model, 'spoiler', false, walk.errors, path);
  if (walk.errors.count !== before) return undefined;
  return {
    components: components as JsonObject[],
    accent_color: accent as number | null,
    spoiler: !!spoiler,
  };
}

/** A label (modals): `label` 1-45, `description` ≤ 100, and the one input it names. */
export function readLabel(
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
  child: ChildReader,
): JsonObject | undefined {
  const { errors } = walk;
  const before = errors.count;
  const label = readRequiredText(model, 'label', 1, MAX_LABEL_LENGTH, errors, path);
  const description = readOptionalText(model, 'description', MAX_LABEL_DESCRIPTION_LENGTH, errors, path);
  const raw = getField(model, 'component');
  const component = isAbsent(raw)
    ? addRequired(errors, [...path, 'component'])
    : child(raw, LABEL_CHILDREN, walk, [...path, 'component']);
  if (errors.count !== before) return undefined;
  const result: JsonObject = { label: label as string, component: component as JsonObject };
  if (description) result.description = description;
  return result;
}
