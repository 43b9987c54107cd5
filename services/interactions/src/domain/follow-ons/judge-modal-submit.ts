import { FormErrors, codePointLength, isJsonObject, type ErrorPath, type JsonObject } from '@acs/validation';
import { UnknownInteractionError } from '../callbacks/callback-errors';
import type { MessageAttachment, UploadedFile } from '../messages/attachments';
import { ComponentType, SELECT_TYPES } from '../messages/components/component-types';
import { listInputs } from '../messages/components/find-component';
import type { ModalSubmitBody } from '../invocation/read-invocation-body';
import type { ResolvedData } from '../invocation/validate-command-data';
import { FollowOnErrorCode as ErrorCode, throwFollowOnError } from './follow-on-errors';
import type { OpenModal } from './follow-on-sources';
import {
  noIds,
  readSelectValues,
  resolveSelectValues,
  type SelectIds,
  type SelectLookups,
} from './read-select-values';

/** A modal submit that passed: the answers by custom_id, and the ids to resolve. */
export interface ModalAnswers {
  /** Each input's answer as the app receives it (`{type, id, custom_id, value | values}`), by custom_id. */
  answers: Map<string, JsonObject>;
  ids: SelectIds;
  /** The files each FILE_UPLOAD answer names, by custom_id, in the order named. */
  uploads: Map<string, UploadedFile[]>;
}

/** A text input's default `max_length` (D §Text Input). */
const MAX_TEXT_INPUT_LENGTH = 4000;

/**
 * Judges a modal submit against the modal the app opened, before any peer is asked: 404 /
 * 10062 Unknown interaction when `data.id` names no modal this user can submit (unknown, not
 * a modal, another user's or application's, in another channel or guild, submitted already, or its
 * token expired). 400 / 50035 at `data.custom_id` for another modal's custom_id, at the
 * answer's path for an answer the modal has no input for or that breaks the input's rules
 * (text length, required, select values), at `data.components` for a required input left
 * unanswered. A FILE_UPLOAD answer's `values` are indices `n` of the request's `files[n]`
 * (as a message's `attachments[].id`): an index no file has, a file named twice, a count
 * outside the input's min_values-max_values, or a file of a type `file_types` does not allow
 * is 50035 at the value; a file no answer names is 50035 at `files[n]`.
 */
export function judgeModalSubmit(
  body: ModalSubmitBody,
  userId: string,
  open: OpenModal | undefined,
  files: readonly UploadedFile[] = [],
): ModalAnswers {
  if (
    !open ||
    open.userId !== userId ||
    open.applicationId !== body.applicationId ||
    open.channelId !== body.channelId ||
    open.guildId !== body.guildId ||
    open.submitted ||
    open.expired
  ) {
    throw new UnknownInteractionError();
  }
  if (open.modal.custom_id !== body.data.customId) {
    throwFollowOnError(
      ['data', 'custom_id'],
      ErrorCode.MODAL_CUSTOM_ID_MISMATCH,
      'This is not the modal that was opened',
    );
  }
  const errors = new FormErrors();
  const sent = collectSentAnswers(body.data.components, errors);
  const inputs = new Map(
    listInputs(open.modal.components).map((input) => [input.custom_id as string, input]),
  );
  for (const [customId, { path }] of sent) {
    if (!inputs.has(customId)) {
      errors.add(
        [...path, 'custom_id'],
        ErrorCode.MODAL_ANSWER_INVALID,
        'The modal has no input with this custom_id',
      );
    }
  }
  const ids = noIds();
  const answers = new Map<string, JsonObject>();
  const uploads = new FileClaims(files);
  for (const [customId, input] of inputs) {
    const answer = readAnswer(input, sent.get(customId), ids, uploads, errors);
    if (answer) answers.set(customId, answer);
  }
  for (const file of uploads.unclaimed()) {
    errors.add(
      [`files[${file.index}]`],
      ErrorCode.MODAL_ANSWER_INVALID,
      'No file upload of the modal names this file',
    );
  }
  errors.throwIfAny();
  return { answers, ids, uploads: uploads.byCustomId };
}

/** The request's files as FILE_UPLOAD answers claim them (each once). */
class FileClaims {
  readonly byCustomId = new Map<string, UploadedFile[]>();
  private readonly byIndex: Map<string, UploadedFile>;
  private readonly claimed = new Set<UploadedFile>();

  constructor(private readonly files: readonly UploadedFile[]) {
    this.byIndex = new Map(files.map((file) => [String(file.index), file]));
  }

  /** The file `value` names for `customId`, or an error's message. */
  claim(customId: string, value: unknown): UploadedFile | string {
    const file = typeof value === 'string' ? this.byIndex.get(value) : undefined;
    if (!file) return 'No file of the request has this index (files[n])';
    if (this.claimed.has(file)) return 'This file is named twice';
    this.claimed.add(file);
    this.byCustomId.set(customId, [...(this.byCustomId.get(customId) ?? []), file]);
    return file;
  }

  unclaimed(): UploadedFile[] {
    return this.files.filter((file) => !this.claimed.has(file));
  }
}

/** Whether `file` is of a type a file upload's `file_types` allows (`image`, `video`, `audio`, or `.ext`). */
function fileTypeAllowed(file: UploadedFile, fileTypes: unknown): boolean {
  if (!Array.isArray(fileTypes) || fileTypes.length === 0) return true;
  const name = file.filename.toLowerCase();
  const media = file.contentType.toLowerCase().split('/')[0];
  return fileTypes.some((type) =>
    typeof type === 'string' && type.startsWith('.') ? name.endsWith(type.toLowerCase()) : type === media,
  );
}

/**
 * The modal submit's `data` as the app receives it (A2 "Modal submit"): `custom_id`, the
 * modal's layout with each input's answer (labels as `{type: 18, id, component}`, the
 * deprecated rows as `{type: 1, id, components}`, text displays as `{type: 10, id}`), and
 * `resolved` for the ids select answers name.
 */
export function buildModalData(
  open: OpenModal,
  judged: ModalAnswers,
  lookups: SelectLookups,
  attachments: ReadonlyMap<string, readonly MessageAttachment[]> = new Map(),
): JsonObject {
  const resolved: ResolvedData = {};
  const errors = new FormErrors();
  const answerOf = (input: unknown, path: ErrorPath): JsonObject => {
    const customId = isJsonObject(input) ? (input.custom_id as string) : '';
    const answer = judged.answers.get(customId) as JsonObject;
    if (Array.isArray(answer.values) && SELECT_TYPES.includes(answer.type as number)) {
      resolveSelectValues(input as JsonObject, answer.values as string[], lookups, resolved, errors, path);
    }
    if (answer.type === ComponentType.FILE_UPLOAD) {
      // The app receives the attachments' ids, each resolved to its attachment object.
      const made = attachments.get(customId) ?? [];
      const byId = ((resolved as JsonObject).attachments ?? {}) as JsonObject;
      for (const attachment of made) byId[attachment.id] = attachment as unknown as JsonObject;
      if (made.length > 0) (resolved as JsonObject).attachments = byId;
      return { ...answer, values: made.map((attachment) => attachment.id) };
    }
    return answer;
  };
  const components = open.modal.components.map((top, index) => {
    const path = ['data', 'components', index];
    if (top.type === ComponentType.LABEL) {
      return {
        type: top.type,
        id: top.id,
        component: answerOf(top.component, [...path, 'component', 'values']),
      };
    }
    if (top.type === ComponentType.ACTION_ROW && Array.isArray(top.components)) {
      return {
        type: top.type,
        id: top.id,
        components: top.components.map((input, i) => answerOf(input, [...path, 'components', i, 'values'])),
      };
    }
    return { type: top.type, id: top.id };
  });
  errors.throwIfAny();
  const data: JsonObject = { custom_id: open.modal.custom_id, components };
  if (Object.keys(resolved).length > 0) data.resolved = resolved as JsonObject;
  return data;
}

interface SentAnswer {
  answer: JsonObject;
  path: ErrorPath;
}

/**
 * The answers a submit carries, by custom_id, wherever the client nests them (a label's
 * `component`, a row's `components`, or at the top): two levels at most, as a modal has.
 */
function collectSentAnswers(components: readonly unknown[], errors: FormErrors): Map<string, SentAnswer> {
  const sent = new Map<string, SentAnswer>();
  const visit = (item: unknown, path: ErrorPath, depth: number): void => {
    if (!isJsonObject(item)) {
      errors.add(path, ErrorCode.MODAL_ANSWER_INVALID, 'An answer is an object');
      return;
    }
    if (typeof item.custom_id === 'string') {
      if (sent.has(item.custom_id)) {
        errors.add([...path, 'custom_id'], ErrorCode.MODAL_ANSWER_INVALID, 'This input is answered twice');
      }
      sent.set(item.custom_id, { answer: item, path });
      return;
    }
    if (depth >= 2) return;
    if (isJsonObject(item.component)) visit(item.component, [...path, 'component'], depth + 1);
    if (Array.isArray(item.components)) {
      item.components.slice(0, 5).forEach((child, i) => visit(child, [...path, 'components', i], depth + 1));
    }
  };
  components.forEach((item, index) => visit(item, ['data', 'components', index], 0));
  return sent;
}

// One input's answer, checked against the input; a required input left out is refused at
// `data.components`.
function readAnswer(
  input: JsonObject,
  sent: SentAnswer | undefined,
  ids: SelectIds,
  uploads: FileClaims,
  errors: FormErrors,
): JsonObject | undefined {
  const type = input.type as number;
  const base = { type, id: input.id, custom_id: input.custom_id };
  const path = sent?.path ?? ['data', 'components'];
  const raw = sent?.answer;
  const required = input.required !== false;
  const missing = (): undefined => {
    errors.add(
      ['data', 'components'],
      ErrorCode.MODAL_ANSWER_MISSING,
      `The input "${String(input.custom_id)}" is required`,
    );
    return undefined;
  };
  switch (type) {
    case ComponentType.TEXT_INPUT: {
      const value = raw?.value ?? '';
      if (typeof value !== 'string') {
        errors.add([...path, 'value'], ErrorCode.MODAL_ANSWER_INVALID, 'A text answer is a string');
        return undefined;
      }
      if (value === '') return required ? missing() : { ...base, value };
      const length = codePointLength(value);
      const min = typeof input.min_length === 'number' ? input.min_length : 0;
      const max = typeof input.max_length === 'number' ? input.max_length : MAX_TEXT_INPUT_LENGTH;
      if (length < min || length > max) {
        errors.add(
          [...path, 'value'],
          ErrorCode.MODAL_ANSWER_INVALID,
          `Must be between ${min} and ${max} in length.`,
        );
        return undefined;
      }
      return { ...base, value };
    }
    case ComponentType.CHECKBOX: {
      const value = raw?.value ?? false;
      if (typeof value !== 'boolean') {
        errors.add([...path, 'value'], ErrorCode.MODAL_ANSWER_INVALID, 'A checkbox answer is true or false');
        return undefined;
      }
      return { ...base, value };
    }
    case ComponentType.RADIO_GROUP: {
      const value = raw?.value ?? null;
      const options = Array.isArray(input.options) ? input.options : [];
      if (value === null) return required ? missing() : { ...base, value };
      if (!options.some((option) => isJsonObject(option) && option.value === value)) {
        errors.add([...path, 'value'], ErrorCode.MODAL_ANSWER_INVALID, 'Not an option of this radio group');
        return undefined;
      }
      return { ...base, value };
    }
    case ComponentType.FILE_UPLOAD: {
      // `values` name the request's files by index; the app receives attachment ids.
      const values = raw?.values ?? [];
      const at = [...path, 'values'];
      if (!Array.isArray(values)) {
        errors.add(at, ErrorCode.MODAL_ANSWER_INVALID, 'A file upload answer is a list of file indices');
        return undefined;
      }
      const min = required ? (typeof input.min_values === 'number' ? input.min_values : 1) : 0;
      const max = typeof input.max_values === 'number' ? input.max_values : 1;
      if (values.length === 0 && min > 0) return missing();
      if (values.length < min || values.length > max) {
        errors.add(at, ErrorCode.MODAL_ANSWER_INVALID, `Must be between ${min} and ${max} in length.`);
        return undefined;
      }
      const before = errors.count;
      values.forEach((value, index) => {
        const file = uploads.claim(input.custom_id as string, value);
        if (typeof file === 'string') errors.add([...at, index], ErrorCode.MODAL_ANSWER_INVALID, file);
        else if (!fileTypeAllowed(file, input.file_types)) {
          errors.add(
            [...at, index],
            ErrorCode.MODAL_ANSWER_INVALID,
            'This file upload does not take this type of file',
          );
        }
      });
      return errors.count === before ? { ...base, values: values as string[] } : undefined;
    }
    default: {
      // Selects and checkbox groups.
      const rawValues = raw?.values ?? [];
      if (required && Array.isArray(rawValues) && rawValues.length === 0 && raw === undefined)
        return missing();
      const values = readSelectValues(input, rawValues, ids, errors, [...path, 'values']);
      return values && { ...base, values };
    }
  }
}
