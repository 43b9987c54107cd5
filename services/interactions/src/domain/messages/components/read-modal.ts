import {
  FormErrors,
  addRequired,
  checkItemCount,
  getField,
  isAbsent,
  readList,
  readModel,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import { MAX_CUSTOM_ID_LENGTH, MAX_MODAL_COMPONENTS, MAX_MODAL_TITLE_LENGTH } from './component-limits';
import { MODAL_TOP_LEVEL } from './component-types';
import { ComponentWalk, readRequiredText } from './component-walk';
import { readComponent } from './read-component';

/** A modal an app opens (callback 9), as the user's client receives it. */
export interface Modal {
  custom_id: string;
  title: string;
  components: JsonObject[];
}

/**
 * A modal's data (D:interactions/receiving-and-responding.mdx §Modal): `custom_id` 1-100,
 * `title` 1-45, 1-5 components: labels (each wrapping a text input, select, file upload,
 * radio group, checkbox group or checkbox), text displays, or the deprecated action row
 * with one text input. `custom_id`s are unique in the modal.
 */
export function readModal(raw: unknown, errors: FormErrors, path: ErrorPath): Modal | undefined {
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const before = errors.count;
  const customId = readRequiredText(model, 'custom_id', 1, MAX_CUSTOM_ID_LENGTH, errors, path);
  const title = readRequiredText(model, 'title', 1, MAX_MODAL_TITLE_LENGTH, errors, path);
  const components = readModalComponents(getField(model, 'components'), errors, [...path, 'components']);
  if (errors.count !== before) return undefined;
  return { custom_id: customId as string, title: title as string, components: components as JsonObject[] };
}

function readModalComponents(raw: unknown, errors: FormErrors, path: ErrorPath): JsonObject[] | undefined {
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  const list = readList(raw, errors, path);
  if (!list || !checkItemCount(list, 1, MAX_MODAL_COMPONENTS, errors, path)) return undefined;
  const before = errors.count;
  const walk = new ComponentWalk(errors, 'modal');
  const components = list.map((item, index) => readComponent(item, MODAL_TOP_LEVEL, walk, [...path, index]));
  if (errors.count !== before) return undefined;
  walk.assignIds();
  return components as JsonObject[];
}
