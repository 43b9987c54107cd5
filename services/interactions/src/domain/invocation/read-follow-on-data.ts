// The `data` of the interactions that follow a message (A8): a component used (type 3) and
// a modal submitted (type 5), type-checked. What they name is judged later, against the
// stored message or modal (judgeComponentUse, judgeModalSubmit).
import {
  addRequired,
  checkLength,
  checkMaxItems,
  getField,
  isAbsent,
  readInteger,
  readList,
  readModel,
  readSnowflake,
  readString,
  type ErrorPath,
  type FormErrors,
  type JsonObject,
} from '@acs/validation';

/** A component interaction's data as the client sent it. */
export interface SentComponentData {
  customId: string;
  componentType: number;
  /** Selects: the values picked (raw, judged against the select); null for a button. */
  values: unknown[] | null;
}

/** A modal submit's data as the client sent it. */
export interface SentModalData {
  /** The interaction that opened the modal. */
  id: string;
  customId: string;
  /** The answers, as the modal's layout holds them (judged against the stored modal). */
  components: unknown[];
}

/** A custom_id's limit (D: 1-100 characters). */
const MAX_CUSTOM_ID_LENGTH = 100;
/** More values than any select takes can name nothing. */
const MAX_VALUES = 25;
/** A modal has at most 5 components: more answers can match none. */
const MAX_MODAL_ANSWERS = 5;

/** `data` of a type 3: `custom_id`, `component_type` (the client may call it `type`), `values?`. */
export function readComponentData(
  raw: unknown,
  errors: FormErrors,
  path: ErrorPath,
): SentComponentData | undefined {
  const data = readModel(raw, errors, path);
  if (!data) return undefined;
  const before = errors.count;
  const customId = readCustomId(data, errors, path);
  const rawType = getField(data, 'component_type') ?? getField(data, 'type');
  let componentType: number | undefined;
  if (isAbsent(rawType)) addRequired(errors, [...path, 'component_type']);
  else componentType = readInteger(rawType, errors, [...path, 'component_type']);
  const rawValues = getField(data, 'values');
  let values: unknown[] | null = null;
  if (!isAbsent(rawValues)) {
    const list = readList(rawValues, errors, [...path, 'values']);
    if (list && checkMaxItems(list, MAX_VALUES, errors, [...path, 'values'])) values = list;
  }
  if (errors.count !== before) return undefined;
  return { customId: customId as string, componentType: componentType as number, values };
}

/** `data` of a type 5: `id` (the interaction that opened the modal), `custom_id`, `components`. */
export function readModalData(raw: unknown, errors: FormErrors, path: ErrorPath): SentModalData | undefined {
  const data = readModel(raw, errors, path);
  if (!data) return undefined;
  const before = errors.count;
  const rawId = getField(data, 'id');
  const id = isAbsent(rawId)
    ? addRequired(errors, [...path, 'id'])
    : readSnowflake(rawId, errors, [...path, 'id']);
  const customId = readCustomId(data, errors, path);
  const rawComponents = getField(data, 'components');
  let components: unknown[] | undefined;
  if (isAbsent(rawComponents)) addRequired(errors, [...path, 'components']);
  else {
    const list = readList(rawComponents, errors, [...path, 'components']);
    if (list && checkMaxItems(list, MAX_MODAL_ANSWERS, errors, [...path, 'components'])) components = list;
  }
  if (errors.count !== before) return undefined;
  return { id: id as string, customId: customId as string, components: components as unknown[] };
}

function readCustomId(data: JsonObject, errors: FormErrors, path: ErrorPath): string | undefined {
  const raw = getField(data, 'custom_id');
  const at = [...path, 'custom_id'];
  if (isAbsent(raw)) {
    addRequired(errors, at);
    return undefined;
  }
  const text = readString(raw, errors, at);
  return text !== undefined && checkLength(text, 1, MAX_CUSTOM_ID_LENGTH, errors, at) ? text : undefined;
}
