import {
  checkMaxItems,
  isAbsent,
  readList,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import { MAX_LEGACY_ROWS, MAX_V2_COMPONENTS } from './component-limits';
import { LEGACY_TOP_LEVEL, V2_TOP_LEVEL } from './component-types';
import { ComponentWalk } from './component-walk';
import { readComponent } from './read-component';

/**
 * A message's `components` (null reads as []): a legacy message takes up to 5 action rows;
 * a components-v2 message (`isComponentsV2`) any layout of up to 40 components in all,
 * nested ones included (COMPONENT_MAX_TOTAL_EXCEEDED at `components`). `custom_id`s and
 * `id`s are unique in the message; components sent without an `id` get the next free one.
 */
export function readMessageComponents(
  raw: unknown,
  isComponentsV2: boolean,
  errors: FormErrors,
  path: ErrorPath,
): JsonObject[] | undefined {
  if (isAbsent(raw)) return [];
  const list = readList(raw, errors, path);
  if (!list) return undefined;
  const before = errors.count;
  if (!isComponentsV2 && !checkMaxItems(list, MAX_LEGACY_ROWS, errors, path)) return undefined;
  // A v2 message's 40 are counted before anything nested is read: a huge list costs no more.
  if (isComponentsV2 && !checkMaxItems(list, MAX_V2_COMPONENTS, errors, path)) return undefined;
  const walk = new ComponentWalk(errors, 'message');
  const allowed = isComponentsV2 ? V2_TOP_LEVEL : LEGACY_TOP_LEVEL;
  const components = list.map((item, index) => readComponent(item, allowed, walk, [...path, index]));
  if (isComponentsV2 && walk.count > MAX_V2_COMPONENTS) {
    errors.add(
      path,
      ErrorCode.COMPONENT_MAX_TOTAL_EXCEEDED,
      `A message can have at most ${MAX_V2_COMPONENTS} components in total, nested ones included`,
    );
  }
  if (errors.count !== before) return undefined;
  walk.assignIds();
  return components as JsonObject[];
}
