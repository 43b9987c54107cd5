// The body of an interaction response `{type, data?}` (A3, A4), checked against the
// interaction it answers: the callback type must be one this interaction takes, and `data`
// must be what that type carries.
import {
  FormErrors,
  addChoicesError,
  addRequired,
  getField,
  isAbsent,
  readInteger,
  readModel,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import { InvalidFormBodyError } from '@acs/discord-errors';
import { checkWellFormedText } from '../messages/check-well-formed';
import { EmptyMessageError } from '../messages/message-errors';
import { MessageErrorCode } from '../messages/message-error-codes';
import { MessageFlag } from '../messages/message-flags';
import type { UploadedFile } from '../messages/attachments';
import {
  validateMessage,
  validateMessageEdit,
  type MessageEdit,
  type MessageInput,
} from '../messages/validate-message';
import { readModal, type Modal } from '../messages/components/read-modal';
import { InteractionType } from '../interaction-enums';
import { CallbackErrorCode } from './callback-error-codes';
import {
  ALLOWED_CALLBACKS,
  CALLBACK_TYPE_NAMES,
  CALLBACK_TYPES,
  CallbackType,
  EMBEDDED_APPLICATION_FLAG,
  INTERACTION_TYPE_NAMES,
  MODAL_SUBMIT_FROM_COMPONENT_CALLBACKS,
} from './callback-types';
import { readAutocompleteChoices, type AutocompleteChoice } from './read-autocomplete-choices';

/** What the answer is checked against. */
export interface CallbackContext {
  /** The interaction's type: 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 its autocomplete, 5 MODAL_SUBMIT. */
  interactionType: number;
  /** The interaction comes from a component's message (types 3, and 5 of a modal opened from one). */
  fromComponent?: boolean;
  /** The application's flags: LAUNCH_ACTIVITY needs EMBEDDED (1 << 17). */
  applicationFlags: number;
  /** Autocomplete: the type of the focused option (3 STRING, 4 INTEGER, 10 NUMBER). */
  focusedOptionType?: number;
  /** A multipart body's files, for the message of callback 4 (`data.attachments` describes them). */
  files?: readonly UploadedFile[];
}

/** An initial response that passed every rule. */
export type ValidCallback =
  | { type: typeof CallbackType.CHANNEL_MESSAGE_WITH_SOURCE; message: MessageInput }
  | { type: typeof CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE; ephemeral: boolean }
  | { type: typeof CallbackType.DEFERRED_UPDATE_MESSAGE }
  | { type: typeof CallbackType.UPDATE_MESSAGE; edit: MessageEdit }
  | { type: typeof CallbackType.MODAL; modal: Modal }
  | { type: typeof CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT; choices: AutocompleteChoice[] }
  | { type: typeof CallbackType.LAUNCH_ACTIVITY };

/**
 * The callback type a body asks for, when it is an integer: lets a caller fetch what only
 * some types need before validating. Undefined for anything validateCallback refuses anyway.
 */
export function peekCallbackType(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const type = getField(body as JsonObject, 'type');
  return typeof type === 'number' && Number.isInteger(type) ? type : undefined;
}

/**
 * Validates an interaction response: 400 / 50109 for text that is no Unicode, 400 / 50035
 * at `type` for a type this interaction does not take, at `data…` for bad data; 400 /
 * 50006 for a message that shows nothing.
 */
export function validateCallback(body: unknown, ctx: CallbackContext): ValidCallback {
  checkWellFormedText(body);
  const errors = new FormErrors();
  const model = readModel(body, errors, []);
  if (!model) throw new InvalidFormBodyError(errors.toJSON());
  const type = readCallbackType(getField(model, 'type'), ctx, errors);
  if (type === undefined) throw new InvalidFormBodyError(errors.toJSON());
  const data = getField(model, 'data');
  switch (type) {
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
      // A message response without data has nothing to show.
      if (isAbsent(data)) throw new EmptyMessageError();
      return { type, message: validateMessage(data, ['data'], ctx.files) };
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
      const ephemeral = readDeferData(data, errors, ['data']);
      errors.throwIfAny();
      return { type, ephemeral: ephemeral as boolean };
    }
    case CallbackType.DEFERRED_UPDATE_MESSAGE:
      return { type };
    case CallbackType.UPDATE_MESSAGE:
      // The component's message is edited: the edit's rules, its components read against
      // the flags the message ends up with (applyMessageEdit).
      return { type, edit: readUpdateData(data, ctx.files ?? []) };
    case CallbackType.MODAL: {
      const modal = readModal(data, errors, ['data']);
      errors.throwIfAny();
      return { type, modal: modal as Modal };
    }
    case CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: {
      const choices = readAutocompleteData(data, ctx.focusedOptionType, errors, ['data']);
      errors.throwIfAny();
      return { type, choices: choices as AutocompleteChoice[] };
    }
    default:
      return { type: CallbackType.LAUNCH_ACTIVITY };
  }
}

// `type`: required, one of the public callback types, and one this interaction takes.
function readCallbackType(
  raw: unknown,
  ctx: CallbackContext,
  errors: FormErrors,
): ValidCallback['type'] | undefined {
  const path: ErrorPath = ['type'];
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  const type = readInteger(raw, errors, path);
  if (type === undefined) return undefined;
  if (!CALLBACK_TYPES.includes(type)) {
    addChoicesError(CALLBACK_TYPES, errors, path);
    return undefined;
  }
  const allowed = [
    ...(ALLOWED_CALLBACKS[ctx.interactionType] ?? []),
    ...(ctx.interactionType === InteractionType.MODAL_SUBMIT && ctx.fromComponent
      ? MODAL_SUBMIT_FROM_COMPONENT_CALLBACKS
      : []),
  ];
  const interactionName = `${INTERACTION_TYPE_NAMES[ctx.interactionType] ?? 'UNKNOWN'} (${ctx.interactionType})`;
  if (!allowed.includes(type)) {
    const choices = allowed.map((t) => `${CALLBACK_TYPE_NAMES[t]} (${t})`).join(', ');
    errors.add(
      path,
      CallbackErrorCode.INTERACTION_CALLBACK_TYPE_INVALID,
      `${CALLBACK_TYPE_NAMES[type]} (${type}) cannot answer an ${interactionName} interaction; it takes ${choices}`,
    );
    return undefined;
  }
  if (type === CallbackType.LAUNCH_ACTIVITY && (ctx.applicationFlags & EMBEDDED_APPLICATION_FLAG) === 0) {
    errors.add(
      path,
      CallbackErrorCode.INTERACTION_CALLBACK_TYPE_INVALID,
      'LAUNCH_ACTIVITY (12) is only available to applications with the EMBEDDED flag (1 << 17), i.e. with an Activity',
    );
    return undefined;
  }
  return type as ValidCallback['type'];
}

/**
 * UPDATE_MESSAGE's data: an edit of the component's message (absent: no change). Its
 * attachments stay as they are: files and an `attachments` list go through an edit of
 * `@original` (PATCH), which this callback makes the component's message.
 */
function readUpdateData(data: unknown, files: readonly UploadedFile[]): MessageEdit {
  if (isAbsent(data)) return {};
  const edit = validateMessageEdit(data, ['data'], files);
  if (edit.attachments) {
    const errors = new FormErrors();
    errors.add(
      ['data', 'attachments'],
      MessageErrorCode.MESSAGE_ATTACHMENTS_UNSUPPORTED,
      "UPDATE_MESSAGE (7) keeps the message's files; to add or remove files, edit @original after the callback",
    );
    errors.throwIfAny();
  }
  return edit;
}

/**
 * A defer's data: absent, or `{flags}` where only EPHEMERAL may be set (A3: components-v2
 * and the other flags go with the edit that fills the message). Other message fields are
 * ignored, as the loading message has no content.
 */
function readDeferData(raw: unknown, errors: FormErrors, path: ErrorPath): boolean | undefined {
  if (isAbsent(raw)) return false;
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const rawFlags = getField(model, 'flags');
  if (isAbsent(rawFlags)) return false;
  const flagsPath = [...path, 'flags'];
  const flags = readInteger(rawFlags, errors, flagsPath);
  if (flags === undefined) return undefined;
  if (flags !== 0 && flags !== MessageFlag.EPHEMERAL) {
    errors.add(
      flagsPath,
      MessageErrorCode.MESSAGE_FLAGS_INVALID,
      'Only EPHEMERAL (1 << 6) can be set on a deferred response; set other flags when editing it',
    );
    return undefined;
  }
  return flags === MessageFlag.EPHEMERAL;
}

// An autocomplete answer's data: required, `{choices}`.
function readAutocompleteData(
  raw: unknown,
  focusedType: number | undefined,
  errors: FormErrors,
  path: ErrorPath,
): AutocompleteChoice[] | undefined {
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  return readAutocompleteChoices(getField(model, 'choices'), focusedType, errors, [...path, 'choices']);
}
