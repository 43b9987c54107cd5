// The state of one walk over a message's or a modal's components, and the field readers
// every component reader shares. Each reader records its errors at the component's path
// (`data.components.0.components.1.custom_id`) and returns the component as the API will
// echo it: known fields only, defaults filled in.
import {
  FormErrors,
  addChoicesError,
  addRequired,
  checkLength,
  checkRange,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readModel,
  readSnowflake,
  readString,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import { MAX_COMPONENT_ID, MAX_CUSTOM_ID_LENGTH } from './component-limits';

/** Where the components are shown: rules differ (`disabled` is a message's, `required` a modal's). */
export type ComponentSurface = 'message' | 'modal';

/** One walk: the errors, and what must be unique or counted across the whole message. */
export class ComponentWalk {
  /** Components read so far, nested ones included. */
  count = 0;
  private readonly customIds = new Set<string>();
  private readonly ids = new Set<number>();
  /** Components sent without an `id` (or with 0): numbered once the walk is over. */
  private readonly unnumbered: JsonObject[] = [];

  constructor(
    readonly errors: FormErrors,
    readonly surface: ComponentSurface,
  ) {}

  /** Records a `custom_id` (unique per message or modal: COMPONENT_CUSTOM_ID_DUPLICATED at the repeat). */
  claimCustomId(customId: string, path: ErrorPath): void {
    if (this.customIds.has(customId)) {
      this.errors.add(
        path,
        ErrorCode.COMPONENT_CUSTOM_ID_DUPLICATED,
        'Component custom id cannot be duplicated',
      );
      return;
    }
    this.customIds.add(customId);
  }

  /** Reads a component's optional `id` (a 32-bit integer, unique; 0 or none: one is assigned). */
  readId(model: JsonObject, path: ErrorPath): number | undefined {
    const raw = getField(model, 'id');
    if (isAbsent(raw)) return 0;
    const at = [...path, 'id'];
    const id = readInteger(raw, this.errors, at);
    if (id === undefined || !checkRange(id, 0, MAX_COMPONENT_ID, 'int', this.errors, at)) return undefined;
    if (id === 0) return 0;
    if (this.ids.has(id)) {
      this.errors.add(at, ErrorCode.COMPONENT_ID_DUPLICATED, 'Component id cannot be duplicated');
      return undefined;
    }
    this.ids.add(id);
    return id;
  }

  /** Keeps a component for numbering when it came without an id. */
  numberLater(component: JsonObject): void {
    this.unnumbered.push(component);
  }

  /**
   * Gives each component sent without an `id` the next free one, in reading order
   * (D §Anatomy of a Component: "generated sequentially", skipping the ids already used).
   */
  assignIds(): void {
    let next = 1;
    for (const component of this.unnumbered) {
      while (this.ids.has(next)) next += 1;
      component.id = next;
      this.ids.add(next);
    }
  }
}

/** A required `custom_id` of 1-100 characters, unique in the walk. */
export function readCustomId(model: JsonObject, walk: ComponentWalk, path: ErrorPath): string | undefined {
  const at = [...path, 'custom_id'];
  const raw = getField(model, 'custom_id');
  if (isAbsent(raw)) {
    addRequired(walk.errors, at);
    return undefined;
  }
  const text = readString(raw, walk.errors, at);
  if (text === undefined || !checkLength(text, 1, MAX_CUSTOM_ID_LENGTH, walk.errors, at)) return undefined;
  walk.claimCustomId(text, at);
  return text;
}

/** A required string of `min`-`max` characters ("" is missing when `min` is 1 or more). */
export function readRequiredText(
  model: JsonObject,
  key: string,
  min: number,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  const raw = getField(model, key);
  const at = [...path, key];
  if (isAbsent(raw) || (raw === '' && min > 0)) {
    addRequired(errors, at);
    return undefined;
  }
  const text = readString(raw, errors, at);
  if (text === undefined || !checkLength(text, min, max, errors, at)) return undefined;
  return text;
}

/** An optional string of at most `max` characters; null reads as absent. */
export function readOptionalText(
  model: JsonObject,
  key: string,
  max: number,
  errors: FormErrors,
  path: ErrorPath,
): string | null | undefined {
  const raw = getField(model, key);
  if (isAbsent(raw)) return null;
  const at = [...path, key];
  const text = readString(raw, errors, at);
  if (text === undefined || !checkLength(text, 0, max, errors, at)) return undefined;
  return text;
}

/** An optional boolean; null reads as `fallback`. */
export function readOptionalBoolean(
  model: JsonObject,
  key: string,
  fallback: boolean,
  errors: FormErrors,
  path: ErrorPath,
): boolean | undefined {
  const raw = getField(model, key);
  return isAbsent(raw) ? fallback : readBoolean(raw, errors, [...path, key]);
}

/** An optional integer within [min, max]; null reads as `fallback`. */
export function readOptionalInteger(
  model: JsonObject,
  key: string,
  min: number,
  max: number,
  fallback: number | null,
  errors: FormErrors,
  path: ErrorPath,
): number | null | undefined {
  const raw = getField(model, key);
  if (isAbsent(raw)) return fallback;
  const at = [...path, key];
  const value = readInteger(raw, errors, at);
  if (value === undefined || !checkRange(value, min, max, 'int', errors, at)) return undefined;
  return value;
}

/** A required integer that is one of `allowed` (BASE_TYPE_CHOICES otherwise). */
export function readRequiredChoice(
  model: JsonObject,
  key: string,
  allowed: readonly number[],
  errors: FormErrors,
  path: ErrorPath,
): number | undefined {
  const raw = getField(model, key);
  const at = [...path, key];
  if (isAbsent(raw)) {
    addRequired(errors, at);
    return undefined;
  }
  const value = readInteger(raw, errors, at);
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) {
    addChoicesError(allowed, errors, at);
    return undefined;
  }
  return value;
}

/** A partial emoji `{id?, name?, animated?}` with an id or a name. */
export function readEmoji(raw: unknown, errors: FormErrors, path: ErrorPath): JsonObject | undefined {
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const before = errors.count;
  const emoji: JsonObject = {};
  const rawId = getField(model, 'id');
  if (!isAbsent(rawId)) emoji.id = readSnowflake(rawId, errors, [...path, 'id']);
  const name = readOptionalText(model, 'name', 100, errors, path);
  if (name) emoji.name = name;
  const animated = readOptionalBoolean(model, 'animated', false, errors, path);
  if (animated) emoji.animated = true;
  if (errors.count === before && emoji.id === undefined && emoji.name === undefined) {
    addRequired(errors, [...path, 'name']);
  }
  return errors.count === before ? emoji : undefined;
}

/** Records that a field this component (or this use of it) does not take was sent. */
export function addFieldNotAllowed(errors: FormErrors, path: ErrorPath, why: string): void {
  errors.add(path, ErrorCode.COMPONENT_FIELD_NOT_ALLOWED, why);
}

/** Whether a field was sent with a value (null and absent are nothing). */
export function hasValue(model: JsonObject, key: string): boolean {
  return !isAbsent(getField(model, key));
}
