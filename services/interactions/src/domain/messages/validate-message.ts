// The body of a message an interaction posts (callback 4's `data`, a follow-up) and of an
// edit, checked as Discord checks webhook messages (A3 "Message callback data"; OAS
// `IncomingWebhookInteractionRequest`, `IncomingWebhookUpdateForInteractionCallbackRequestPartial`).
// Components are read by ./components (readMessageComponents), files by ./attachments (the
// multipart body's files and the payload's `attachments`); polls come with a later issue:
// until then a body that carries one is refused at its field rather than stored without it.
import {
  FormErrors,
  checkLength,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readModel,
  readString,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import { InvalidFormBodyError } from '@acs/discord-errors';
import {
  readEditAttachmentRefs,
  readNewAttachments,
  type AttachmentRef,
  type NewAttachment,
  type UploadedFile,
} from './attachments';
import { checkWellFormedText } from './check-well-formed';
import { MessageFlag, SETTABLE_MESSAGE_FLAGS, hasFlag } from './message-flags';
import { MessageErrorCode as ErrorCode } from './message-error-codes';
import { EmptyMessageError } from './message-errors';
import { MAX_CONTENT_LENGTH } from './message-limits';
import { readEmbeds, type Embed } from './read-embeds';
import { checkAllowedMentions } from './read-allowed-mentions';
import { checkAttachmentUrls } from './components/check-attachment-urls';
import { readMessageComponents } from './components/read-message-components';

/** A message body that passed every rule: what a new message is made of. */
export interface MessageInput {
  content: string;
  embeds: Embed[];
  tts: boolean;
  /** Settable flags only (A3): SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2. */
  flags: number;
  /** The components as the API echoes them (ids assigned). */
  components: JsonObject[];
  /** The request's files, described by the payload's `attachments`. */
  newAttachments: NewAttachment[];
}

/** An edit that passed every rule: each field present replaces the message's (null cleared it to "" or []). */
export interface MessageEdit {
  content?: string;
  embeds?: Embed[];
  flags?: number;
  /** Read against the edit's IS_COMPONENTS_V2, or the message's when the edit sets no flags (see applyMessageEdit). */
  components?: unknown;
  /** The edit's files and its `attachments` (the full list to keep), when it has either. */
  attachments?: { refs?: AttachmentRef[]; files: readonly UploadedFile[] };
}

/**
 * Validates a new message's body at `basePath` (["data"] for a callback, [] for a
 * follow-up): 400 / 50109 for text that is no Unicode, 400 / 50035 with every error found,
 * else 400 / 50006 when the message would show nothing.
 */
export function validateMessage(
  raw: unknown,
  basePath: ErrorPath = [],
  files: readonly UploadedFile[] = [],
): MessageInput {
  checkWellFormedText(raw);
  const errors = new FormErrors();
  const message = collectMessageErrors(raw, errors, basePath, files);
  if (!message || !errors.isEmpty()) throw new InvalidFormBodyError(errors.toJSON());
  if (isEmptyMessage({ ...message, attachments: message.newAttachments })) throw new EmptyMessageError();
  return message;
}

/** Records every error of a new message's body under `basePath`; the message when there is none. */
export function collectMessageErrors(
  raw: unknown,
  errors: FormErrors,
  basePath: ErrorPath,
  files: readonly UploadedFile[] = [],
): MessageInput | undefined {
  const model = readModel(raw, errors, basePath);
  if (!model) return undefined;
  const before = errors.count;
  const at = (key: string): ErrorPath => [...basePath, key];
  const content = readContent(getField(model, 'content'), errors, at('content'));
  const embeds = readEmbeds(getField(model, 'embeds'), errors, at('embeds'));
  const rawTts = getField(model, 'tts');
  const tts = isAbsent(rawTts) ? false : readBoolean(rawTts, errors, at('tts'));
  const flags = readFlags(getField(model, 'flags'), errors, at('flags'));
  checkAllowedMentions(getField(model, 'allowed_mentions'), errors, at('allowed_mentions'));
  const attachments = readNewAttachments(getField(model, 'attachments'), files, errors, at('attachments'));
  checkUnsupportedFields(model, errors, basePath);
  if (content !== undefined && embeds !== undefined && flags !== undefined) {
    checkComponentsV2(flags, content, embeds, errors, basePath);
  }
  // Which components a message takes depends on IS_COMPONENTS_V2: read once the flags are known.
  const components =
    flags === undefined
      ? undefined
      : readMessageComponents(
          getField(model, 'components'),
          hasFlag(flags, MessageFlag.IS_COMPONENTS_V2),
          errors,
          at('components'),
        );
  if (components && attachments) {
    // `attachment://<filename>` names one of this message's files, as sent or as kept.
    const names = new Set(attachments.flatMap((item) => [item.filename, item.file.filename]));
    checkAttachmentUrls(components, names, errors, at('components'));
  }
  if (errors.count !== before) return undefined;
  return {
    content: content as string,
    embeds: embeds as Embed[],
    tts: tts as boolean,
    flags: flags as number,
    components: components as JsonObject[],
    newAttachments: attachments as NewAttachment[],
  };
}

/**
 * Validates an edit's body (PATCH of a message; callback 7's `data` at `basePath`
 * ["data"]) with the request's `files`: 400 / 50035 with every error found.
 */
export function validateMessageEdit(
  raw: unknown,
  basePath: ErrorPath = [],
  files: readonly UploadedFile[] = [],
): MessageEdit {
  checkWellFormedText(raw);
  const errors = new FormErrors();
  const at = (key: string): ErrorPath => [...basePath, key];
  const model = readModel(raw, errors, basePath);
  if (!model) throw new InvalidFormBodyError(errors.toJSON());
  const edit: MessageEdit = {};
  // Present and null clears a field; absent leaves it as it is.
  if (Object.prototype.hasOwnProperty.call(model, 'content')) {
    const content = readContent(model.content, errors, at('content'));
    if (content !== undefined) edit.content = content;
  }
  if (Object.prototype.hasOwnProperty.call(model, 'embeds')) {
    const embeds = readEmbeds(model.embeds, errors, at('embeds'));
    if (embeds !== undefined) edit.embeds = embeds;
  }
  if (!isAbsent(getField(model, 'flags'))) {
    const flags = readFlags(model.flags, errors, at('flags'));
    if (flags !== undefined) edit.flags = flags;
  }
  // Components depend on the flags the message ends up with: read in applyMessageEdit.
  if (Object.prototype.hasOwnProperty.call(model, 'components')) edit.components = model.components;
  checkAllowedMentions(getField(model, 'allowed_mentions'), errors, at('allowed_mentions'));
  const attachments = readEditAttachmentRefs(model, files, errors, at('attachments'));
  if (attachments) edit.attachments = attachments;
  checkUnsupportedFields(model, errors, basePath);
  errors.throwIfAny();
  return edit;
}

/** Whether a message would show nothing: no text (blank counts as none), no embed, no component, no file. */
export function isEmptyMessage(message: {
  content: string;
  embeds: readonly unknown[];
  components?: readonly unknown[];
  attachments?: readonly unknown[];
}): boolean {
  return (
    message.content.trim() === '' &&
    message.embeds.length === 0 &&
    (message.components ?? []).length === 0 &&
    (message.attachments ?? []).length === 0
  );
}

/**
 * Components-v2 messages carry everything in components: `content` and `embeds` must be
 * empty (the real API's MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2 at the field).
 */
export function checkComponentsV2(
  flags: number,
  content: string,
  embeds: readonly Embed[],
  errors: FormErrors,
  basePath: ErrorPath,
): void {
  if (!hasFlag(flags, MessageFlag.IS_COMPONENTS_V2)) return;
  if (content !== '') addLegacyFieldError('content', errors, basePath);
  if (embeds.length > 0) addLegacyFieldError('embeds', errors, basePath);
}

function addLegacyFieldError(field: string, errors: FormErrors, basePath: ErrorPath): void {
  errors.add(
    [...basePath, field],
    ErrorCode.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2,
    `The '${field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2`,
  );
}

// `content`: null reads as "", at most 2000 characters.
function readContent(raw: unknown, errors: FormErrors, path: ErrorPath): string | undefined {
  if (isAbsent(raw)) return '';
  const text = readString(raw, errors, path);
  if (text === undefined || !checkLength(text, 0, MAX_CONTENT_LENGTH, errors, path)) return undefined;
  return text;
}

/**
 * `flags`: an integer of settable flags only. IS_VOICE_MESSAGE is settable on Discord
 * with exactly one audio attachment (and its waveform and duration): refused here.
 */
export function readFlags(raw: unknown, errors: FormErrors, path: ErrorPath): number | undefined {
  if (isAbsent(raw)) return 0;
  const flags = readInteger(raw, errors, path);
  if (flags === undefined) return undefined;
  if (flags < 0 || flags > 0x7fffffff || (flags & ~SETTABLE_MESSAGE_FLAGS) !== 0) {
    errors.add(
      path,
      ErrorCode.MESSAGE_FLAGS_INVALID,
      'Only SUPPRESS_EMBEDS (1 << 2), EPHEMERAL (1 << 6), SUPPRESS_NOTIFICATIONS (1 << 12), IS_VOICE_MESSAGE (1 << 13) and IS_COMPONENTS_V2 (1 << 15) can be set',
    );
    return undefined;
  }
  if (hasFlag(flags, MessageFlag.IS_VOICE_MESSAGE)) {
    errors.add(
      path,
      ErrorCode.MESSAGE_FLAGS_INVALID,
      'IS_VOICE_MESSAGE (1 << 13) needs exactly one audio attachment',
    );
    return undefined;
  }
  return flags;
}

// Polls: a later issue's.
function checkUnsupportedFields(model: JsonObject, errors: FormErrors, basePath: ErrorPath): void {
  if (!isAbsent(getField(model, 'poll'))) {
    errors.add(
      [...basePath, 'poll'],
      ErrorCode.MESSAGE_POLL_UNSUPPORTED,
      'Polls are not supported yet; send content or embeds',
    );
  }
}
