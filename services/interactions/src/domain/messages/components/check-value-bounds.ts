import { checkRange, type ErrorPath, type JsonObject } from '@acs/validation';
import { readOptionalBoolean, readOptionalInteger, type ComponentWalk } from './component-walk';

/** `min_values`, `max_values` and (in a modal) `required` of a select, file upload or checkbox group. */
export interface ValueBounds {
  min: number;
  max: number;
  /** Modals: whether an answer is required (default true). */
  required: boolean;
}

/**
 * Reads `min_values` (0-`limit`, default 1) and `max_values` (1-`limit`, default
 * `defaultMax`, else 1): min ≤ max (NUMBER_TYPE_MAX at `min_values`), and in a modal,
 * `required` (default true) needs `min_values` ≥ 1 (NUMBER_TYPE_MIN at `min_values`).
 */
export function checkValueBounds(
  model: JsonObject,
  limit: number,
  walk: ComponentWalk,
  path: ErrorPath,
  defaultMax = 1,
): ValueBounds | undefined {
  const { errors } = walk;
  const min = readOptionalInteger(model, 'min_values', 0, limit, 1, errors, path);
  const max = readOptionalInteger(model, 'max_values', 1, limit, Math.min(defaultMax, limit), errors, path);
  const required =
    walk.surface === 'modal' ? readOptionalBoolean(model, 'required', true, errors, path) : false;
  if (min === undefined || min === null || max === undefined || max === null || required === undefined) {
    return undefined;
  }
  const at = [...path, 'min_values'];
  if (!checkRange(min, required ? 1 : 0, max, 'int', errors, at)) return undefined;
  return { min, max, required };
}
