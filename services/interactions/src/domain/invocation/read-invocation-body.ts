import { parseJsonObject, type JsonObject } from '@acs/discord-errors';
import {
  addChoicesError,
  addRequired,
  checkLength,
  checkMaxItems,
  collectTextErrors,
  FormErrors,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readList,
  readModel,
  readSnowflake,
  readString,
  type ErrorPath,
} from '@acs/validation';
import { INVOCABLE_INTERACTION_TYPES, InteractionType } from '../interaction-enums';
import { InvocationErrorCode } from './invocation-errors';
import {
  readComponentData,
  readModalData,
  type SentComponentData,
  type SentModalData,
} from './read-follow-on-data';

/** One option as the client sent it; its value is judged against the command later. */
export interface SentOption {
  name: string;
  /** The type the client says it has; null when it sent none. */
  type: number | null;
  /** The raw value (absent: undefined). */
  value: unknown;
  /** Nested options (subcommand groups and subcommands); null when none were sent. */
  options: SentOption[] | null;
  focused: boolean;
}

/** The `data` of an invocation, type-checked. */
export interface SentCommandData {
  id: string;
  name: string;
  /** Null when the client sent none (the command's own type is then assumed). */
  type: number | null;
  version: string;
  options: SentOption[] | null;
  targetId: string | null;
}

/** What every `POST /interactions` body has besides its type and data. */
interface InteractionRequestBase {
  applicationId: string;
  /** Null outside a guild. */
  guildId: string | null;
  channelId: string;
  sessionId: string | null;
  nonce: string | null;
}

/** `POST /interactions` for a command or its autocomplete (A8), type-checked. */
export interface InvocationBody extends InteractionRequestBase {
  /** 2 APPLICATION_COMMAND or 4 APPLICATION_COMMAND_AUTOCOMPLETE. */
  type: number;
  data: SentCommandData;
}

/** `POST /interactions` type 3: a button clicked or select values picked on `messageId`. */
export interface ComponentBody extends InteractionRequestBase {
  type: typeof InteractionType.MESSAGE_COMPONENT;
  messageId: string;
  data: SentComponentData;
}

/** `POST /interactions` type 5: a modal submitted. */
export interface ModalSubmitBody extends InteractionRequestBase {
  type: typeof InteractionType.MODAL_SUBMIT;
  data: SentModalData;
}

/** Any `POST /interactions` body, by its type. */
export type InteractionRequest = InvocationBody | ComponentBody | ModalSubmitBody;

/** Options per level a command can have: more can never match it. */
const MAX_OPTIONS_PER_LEVEL = 25;
/** Levels of options: a group holds subcommands, which hold values. */
const MAX_OPTION_DEPTH = 3;
/** A message nonce's limit, which the client's interaction nonces share. */
const MAX_NONCE_LENGTH = 25;
/** A gateway session id is 32 hex characters; anything much longer names none. */
const MAX_SESSION_ID_LENGTH = 128;

/** Reads the body of a command invocation (readInteractionRequest, refusing types 3 and 5). */
export function readInvocationBody(bodyJson: string): InvocationBody {
  const request = readInteractionRequest(bodyJson);
  if (request.type === InteractionType.MESSAGE_COMPONENT || request.type === InteractionType.MODAL_SUBMIT) {
    const errors = new FormErrors();
    addChoicesError(COMMAND_TYPES, errors, ['type']);
    throw errors.toError();
  }
  return request as InvocationBody;
}

const COMMAND_TYPES = [InteractionType.APPLICATION_COMMAND, InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE];

/**
 * Reads the body of `POST /interactions`: the JSON, every field's type (Discord's 50035
 * tree, all errors at once), U+0000 anywhere, and the `data` of its type. Values of
 * options are kept raw: their rules depend on the command, which is judged later
 * (validateOptions); so are a component's values and a modal's answers.
 */
export function readInteractionRequest(bodyJson: string): InteractionRequest {
  const body = parseJsonObject(bodyJson);
  const errors = new FormErrors();
  collectTextErrors(body, errors);
  errors.throwIfAny();

  const type = readRequired(body, 'type', errors, (v, p) => readInteger(v, errors, p));
  if (type !== undefined && !(INVOCABLE_INTERACTION_TYPES as readonly number[]).includes(type)) {
    addChoicesError(INVOCABLE_INTERACTION_TYPES, errors, ['type']);
  }
  const applicationId = readRequired(body, 'application_id', errors, (v, p) => readSnowflake(v, errors, p));
  const guildId = readOptional(body, 'guild_id', (v) => readSnowflake(v, errors, ['guild_id']));
  const channelId = readRequired(body, 'channel_id', errors, (v, p) => readSnowflake(v, errors, p));
  const sessionId = readOptional(body, 'session_id', (v) => {
    const text = readString(v, errors, ['session_id']);
    return text !== undefined && checkLength(text, 1, MAX_SESSION_ID_LENGTH, errors, ['session_id'])
      ? text
      : undefined;
  });
  const nonce = readOptional(body, 'nonce', (v) => readNonce(v, errors));
  const base = {
    applicationId: applicationId as string,
    guildId: guildId ?? null,
    channelId: channelId as string,
    sessionId: sessionId ?? null,
    nonce: nonce ?? null,
  };
  if (type === InteractionType.MESSAGE_COMPONENT) {
    const messageId = readRequired(body, 'message_id', errors, (v, p) => readSnowflake(v, errors, p));
    const data = readRequired(body, 'data', errors, (v, p) => readComponentData(v, errors, p));
    errors.throwIfAny();
    return { ...base, type, messageId: messageId as string, data: data as SentComponentData };
  }
  if (type === InteractionType.MODAL_SUBMIT) {
    const data = readRequired(body, 'data', errors, (v, p) => readModalData(v, errors, p));
    errors.throwIfAny();
    return { ...base, type, data: data as SentModalData };
  }
  const data = readRequired(body, 'data', errors, (v, p) => readData(v, errors, p));
  errors.throwIfAny();
  return { ...base, type: type as number, data: data as SentCommandData };
}

function readRequired<T>(
  object: JsonObject,
  key: string,
  errors: FormErrors,
  read: (value: unknown, path: ErrorPath) => T | undefined,
  base: ErrorPath = [],
): T | undefined {
  const value = getField(object, key);
  if (isAbsent(value)) {
    addRequired(errors, [...base, key]);
    return undefined;
  }
  return read(value, [...base, key]);
}

function readOptional<T>(
  object: JsonObject,
  key: string,
  read: (value: unknown) => T | undefined,
): T | undefined {
  const value = getField(object, key);
  return isAbsent(value) ? undefined : read(value);
}

/** A nonce: a string of at most 25 characters, or an integer (sent as text onwards). */
function readNonce(value: unknown, errors: FormErrors): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  const text = readString(value, errors, ['nonce']);
  return text !== undefined && checkLength(text, 0, MAX_NONCE_LENGTH, errors, ['nonce']) ? text : undefined;
}

function readData(value: unknown, errors: FormErrors, path: ErrorPath): SentCommandData | undefined {
  const data = readModel(value, errors, path);
  if (!data) return undefined;
  const before = errors.count;
  const id = readRequired(data, 'id', errors, (v, p) => readSnowflake(v, errors, p), path);
  const name = readRequired(data, 'name', errors, (v, p) => readString(v, errors, p), path);
  const type = readOptional(data, 'type', (v) => readInteger(v, errors, [...path, 'type']));
  const version = readRequired(data, 'version', errors, (v, p) => readSnowflake(v, errors, p), path);
  const options = readOptional(data, 'options', (v) => readOptions(v, errors, [...path, 'options'], 1));
  const targetId = readOptional(data, 'target_id', (v) => readSnowflake(v, errors, [...path, 'target_id']));
  if (errors.count !== before) return undefined;
  return {
    id: id as string,
    name: name as string,
    type: type ?? null,
    version: version as string,
    options: options ?? null,
    targetId: targetId ?? null,
  };
}

function readOptions(
  value: unknown,
  errors: FormErrors,
  path: ErrorPath,
  depth: number,
): SentOption[] | undefined {
  const list = readList(value, errors, path);
  if (!list || !checkMaxItems(list, MAX_OPTIONS_PER_LEVEL, errors, path)) return undefined;
  const before = errors.count;
  const options = list.map((item, index) => readOption(item, errors, [...path, index], depth));
  return errors.count === before ? (options as SentOption[]) : undefined;
}

function readOption(
  value: unknown,
  errors: FormErrors,
  path: ErrorPath,
  depth: number,
): SentOption | undefined {
  const option = readModel(value, errors, path);
  if (!option) return undefined;
  const name = readRequired(option, 'name', errors, (v, p) => readString(v, errors, p), path);
  const type = readOptional(option, 'type', (v) => readInteger(v, errors, [...path, 'type']));
  const focused = readOptional(option, 'focused', (v) => readBoolean(v, errors, [...path, 'focused']));
  const rawOptions = getField(option, 'options');
  let options: SentOption[] | undefined;
  if (!isAbsent(rawOptions)) {
    if (depth >= MAX_OPTION_DEPTH) {
      // Deeper than any command goes: nothing there can match, and reading on would let a
      // body nest as deep as its size allows.
      errors.add([...path, 'options'], InvocationErrorCode.OPTION_INVALID, 'Options are nested too deeply');
    } else {
      options = readOptions(rawOptions, errors, [...path, 'options'], depth + 1);
    }
  }
  return {
    name: name as string,
    type: type ?? null,
    value: getField(option, 'value') ?? undefined,
    options: options ?? null,
    focused: focused ?? false,
  };
}
