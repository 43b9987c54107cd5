import {
  addRequired,
  getField,
  isAbsent,
  readInteger,
  readModel,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import { ComponentErrorCode as ErrorCode } from './component-error-codes';
import { ComponentType } from './component-types';
import type { ComponentWalk } from './component-walk';
import { readFile, readMediaGallery, readSeparator, readTextDisplay, readThumbnail } from './read-content';
import { readActionRow, readContainer, readLabel, readSection } from './read-layout';
import { readButton, readSelect } from './read-message-inputs';
import {
  readCheckbox,
  readCheckboxGroup,
  readFileUpload,
  readRadioGroup,
  readTextInput,
} from './read-modal-inputs';

/**
 * Reads one component whose `type` must be one of `allowed` here (UNION_TYPE_CHOICES at
 * `type` otherwise, as Discord answers a component out of place): counts it, reads its
 * `id`, and returns `{type, id, ...fields}` as the API echoes it.
 */
export function readComponent(
  raw: unknown,
  allowed: readonly number[],
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  const model = readModel(raw, walk.errors, path);
  if (!model) return undefined;
  walk.count += 1;
  const rawType = getField(model, 'type');
  const typePath = [...path, 'type'];
  if (isAbsent(rawType)) {
    addRequired(walk.errors, typePath);
    return undefined;
  }
  const type = readInteger(rawType, walk.errors, typePath);
  if (type === undefined) return undefined;
  if (!allowed.includes(type)) {
    walk.errors.add(
      typePath,
      ErrorCode.UNION_TYPE_CHOICES,
      `Value of field "type" must be one of (${allowed.join(', ')}).`,
    );
    return undefined;
  }
  const id = walk.readId(model, path);
  // Numbered before its children: ids run in the order the components are written.
  const component: JsonObject = { type, id: id ?? 0 };
  if (id === 0) walk.numberLater(component);
  const fields = readFields(type, model, walk, path);
  if (id === undefined || fields === undefined) return undefined;
  return Object.assign(component, fields);
}

function readFields(
  type: number,
  model: JsonObject,
  walk: ComponentWalk,
  path: ErrorPath,
): JsonObject | undefined {
  switch (type) {
    case ComponentType.ACTION_ROW:
      return readActionRow(model, walk, path, readComponent);
    case ComponentType.BUTTON:
      return readButton(model, walk, path);
    case ComponentType.TEXT_INPUT:
      // A text input is allowed only in a modal: in an action row (deprecated) or a label.
      return readTextInput(model, walk, path, path[path.length - 2] === 'components');
    case ComponentType.SECTION:
      return readSection(model, walk, path, readComponent);
    case ComponentType.TEXT_DISPLAY:
      return readTextDisplay(model, walk, path);
    case ComponentType.THUMBNAIL:
      return readThumbnail(model, walk, path);
    case ComponentType.MEDIA_GALLERY:
      return readMediaGallery(model, walk, path);
    case ComponentType.FILE:
      return readFile(model, walk, path);
    case ComponentType.SEPARATOR:
      return readSeparator(model, walk, path);
    case ComponentType.CONTAINER:
      return readContainer(model, walk, path, readComponent);
    case ComponentType.LABEL:
      return readLabel(model, walk, path, readComponent);
    case ComponentType.FILE_UPLOAD:
      return readFileUpload(model, walk, path);
    case ComponentType.RADIO_GROUP:
      return readRadioGroup(model, walk, path);
    case ComponentType.CHECKBOX_GROUP:
      return readCheckboxGroup(model, walk, path);
    case ComponentType.CHECKBOX:
      return readCheckbox(model, walk, path);
    default:
      return readSelect(type, model, walk, path);
  }
}
