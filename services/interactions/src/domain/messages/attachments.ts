// A message's files (D:resources/message.mdx §Attachment Object, §Uploading Files; OAS
// `MessageAttachmentRequest`, `MessageAttachmentResponse`). api-gateway streams each
// `files[n]` part of a multipart body into the blob store and hands over what it stored;
// `attachments` (in the payload) names them by `n` to give them a filename, a
// description, a title or a spoiler, and in an edit names the existing attachments to keep.
import { DiscordError } from '@acs/discord-errors';
import {
  FormErrors,
  checkLength,
  getField,
  isAbsent,
  readBoolean,
  readList,
  readModel,
  readNumber,
  readSnowflake,
  readString,
  type ErrorPath,
  type JsonObject,
} from '@acs/validation';
import type { AttachmentSigner } from './attachment-signing';
import { MessageErrorCode as ErrorCode } from './message-error-codes';

/** Most attachments one message may have. */
export const MAX_ATTACHMENTS = 10;
/** `filename`, `description` and `title` of an attachment request: at most 1024 characters. */
export const MAX_ATTACHMENT_TEXT_LENGTH = 1024;
/** An attachment's flag: shown blurred until clicked (a `SPOILER_` filename sets it). */
export const ATTACHMENT_IS_SPOILER = 1 << 3;
/** The filename prefix that marks a spoiler, as Discord's clients write it. */
export const SPOILER_PREFIX = 'SPOILER_';

/** A file of the request, already in the blob store. */
export interface UploadedFile {
  /** n of its part's name `files[n]`. */
  index: number;
  blobKey: string;
  filename: string;
  contentType: string;
  size: number;
}

/** One entry of the payload's `attachments`, read. */
export interface AttachmentRef {
  /** A file's index `n`, or an existing attachment's id (edits), as a decimal string. */
  id: string;
  filename?: string;
  description?: string;
  title?: string;
  isSpoiler?: boolean;
}

/** A new attachment: an uploaded file with what the payload says of it. */
export interface NewAttachment {
  file: UploadedFile;
  filename: string;
  description?: string;
  title?: string;
  spoiler: boolean;
}

/** A message attachment object as the API answers it. */
export interface MessageAttachment {
  id: string;
  filename: string;
  title?: string;
  description?: string;
  content_type: string;
  size: number;
  url: string;
  proxy_url: string;
  ephemeral?: boolean;
  flags?: number;
}

/** An attachment made for a message, with the blob it serves. */
export interface MadeAttachment {
  attachment: MessageAttachment;
  blobKey: string;
}

/** 400 / 30015: more than ten attachments. */
export class MaxAttachmentsError extends DiscordError {
  constructor() {
    super(400, 30015, `Maximum number of attachments in a message reached (${MAX_ATTACHMENTS})`);
  }
}

/**
 * Reads the payload's `attachments` at `path` (absent or null: undefined): a list of
 * `{id, filename?, description?, title?, is_spoiler?}` (`duration_secs`, `waveform` and
 * `is_remix` are type-checked and have no effect). Records every error in `errors`.
 */
export function readAttachmentRefs(
  raw: unknown,
  errors: FormErrors,
  path: ErrorPath,
): AttachmentRef[] | undefined {
  if (isAbsent(raw)) return undefined;
  const list = readList(raw, errors, path);
  if (!list) return undefined;
  const before = errors.count;
  const refs: AttachmentRef[] = [];
  list.forEach((item, index) => {
    const at = [...path, index];
    const model = readModel(item, errors, at);
    if (!model) return;
    const id = readSnowflake(getField(model, 'id'), errors, [...at, 'id']);
    const text = (key: string, min: number): string | undefined => {
      const value = getField(model, key);
      if (isAbsent(value)) return undefined;
      const read = readString(value, errors, [...at, key]);
      if (read === undefined) return undefined;
      return checkLength(read, min, MAX_ATTACHMENT_TEXT_LENGTH, errors, [...at, key]) ? read : undefined;
    };
    const filename = text('filename', 1);
    const description = text('description', 0);
    const title = text('title', 0);
    const rawSpoiler = getField(model, 'is_spoiler');
    const isSpoiler = isAbsent(rawSpoiler)
      ? undefined
      : readBoolean(rawSpoiler, errors, [...at, 'is_spoiler']);
    for (const key of ['duration_secs']) {
      const value = getField(model, key);
      if (!isAbsent(value)) readNumber(value, errors, [...at, key]);
    }
    for (const key of ['waveform']) {
      const value = getField(model, key);
      if (!isAbsent(value)) readString(value, errors, [...at, key]);
    }
    const remix = getField(model, 'is_remix');
    if (!isAbsent(remix)) readBoolean(remix, errors, [...at, 'is_remix']);
    if (id === undefined) return;
    refs.push({
      id,
      ...(filename !== undefined ? { filename } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(isSpoiler !== undefined ? { isSpoiler } : {}),
    });
  });
  return errors.count === before ? refs : undefined;
}

/** What a message's attachments become: those kept (edits) and the new ones, in order. */
export interface AttachmentPlan {
  /** The ids of existing attachments to keep; undefined keeps them all (no `attachments` in an edit). */
  keepIds?: string[];
  added: NewAttachment[];
}

/**
 * Matches the payload's `attachments` with the uploaded files: an entry whose id is a
 * file's index describes that file, one that names an existing attachment (`existingIds`,
 * edits) keeps it, any other is ATTACHMENT_NOT_FOUND at its index. Every uploaded file is
 * attached, described or not, in the order of the parts. Errors go to `errors`.
 */
export function planAttachments(
  refs: AttachmentRef[] | undefined,
  files: readonly UploadedFile[],
  existingIds: readonly string[] | undefined,
  errors: FormErrors,
  path: ErrorPath,
): AttachmentPlan {
  const byIndex = new Map(files.map((file) => [String(file.index), file]));
  const described = new Map<UploadedFile, AttachmentRef>();
  const keepIds: string[] = [];
  (refs ?? []).forEach((ref, index) => {
    const file = byIndex.get(ref.id);
    if (file && !described.has(file)) described.set(file, ref);
    else if (existingIds?.includes(ref.id)) {
      if (!keepIds.includes(ref.id)) keepIds.push(ref.id);
    } else {
      errors.add([...path, index], ErrorCode.ATTACHMENT_NOT_FOUND, 'Attachment data not found');
    }
  });
  const added = [...files]
    .sort((a, b) => a.index - b.index)
    .map((file) => describeFile(file, described.get(file)));
  return { ...(existingIds !== undefined && refs !== undefined ? { keepIds } : {}), added };
}

/** Throws 400 / 30015 when a message would have more than ten attachments. */
export function checkAttachmentCount(count: number): void {
  if (count > MAX_ATTACHMENTS) throw new MaxAttachmentsError();
}

/**
 * A filename as an attachment keeps it: its last path segment, with each character other
 * than letters, digits, `.`, `-` and `_` made `_` (it is the last segment of the URL), or
 * `unknown` when nothing is left.
 */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return cleaned === '' ? 'unknown' : cleaned;
}

function describeFile(file: UploadedFile, ref: AttachmentRef | undefined): NewAttachment {
  let filename = cleanFilename(ref?.filename ?? file.filename);
  if (ref?.isSpoiler && !filename.startsWith(SPOILER_PREFIX)) filename = `${SPOILER_PREFIX}${filename}`;
  return {
    file,
    filename,
    ...(ref?.description !== undefined ? { description: ref.description } : {}),
    ...(ref?.title !== undefined ? { title: ref.title } : {}),
    spoiler: filename.startsWith(SPOILER_PREFIX),
  };
}

/** Where an attachment is served: `{base}/attachments/{channel_id}/{attachment_id}/{filename}`. */
export function attachmentUrl(baseUrl: string, channelId: string, id: string, filename: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
}

/** Where new attachments go and how their URLs are made. */
export interface AttachmentContext {
  nextId: () => string;
  channelId: string;
  baseUrl: string;
  ephemeral: boolean;
  /** Signs each attachment's URL. */
  signer: Pick<AttachmentSigner, 'sign'>;
}

/** The attachment objects of new attachments, each with its id from `nextId` and a signed URL. */
export function makeAttachments(
  added: readonly NewAttachment[],
  context: AttachmentContext,
): MadeAttachment[] {
  return added.map((item) => {
    const id = context.nextId();
    const url = context.signer.sign(attachmentUrl(context.baseUrl, context.channelId, id, item.filename));
    const attachment: MessageAttachment = {
      id,
      filename: item.filename,
      ...(item.title !== undefined ? { title: item.title } : {}),
      ...(item.description !== undefined ? { description: item.description } : {}),
      content_type: item.file.contentType,
      size: item.file.size,
      url,
      proxy_url: url,
      ...(context.ephemeral ? { ephemeral: true } : {}),
      ...(item.spoiler ? { flags: ATTACHMENT_IS_SPOILER } : {}),
    };
    return { attachment, blobKey: item.file.blobKey };
  });
}

/** A new message's attachments: the files, as the payload's `attachments` describes them. */
export function readNewAttachments(
  raw: unknown,
  files: readonly UploadedFile[],
  errors: FormErrors,
  path: ErrorPath,
): NewAttachment[] | undefined {
  const before = errors.count;
  const refs = readAttachmentRefs(raw, errors, path);
  if (errors.count !== before) return undefined;
  const { added } = planAttachments(refs, files, [], errors, path);
  return errors.count === before ? added : undefined;
}

/**
 * An edit's files and `attachments` (read; matched with the message's own attachments
 * when the edit is applied), or undefined when it has neither.
 */
export function readEditAttachmentRefs(
  model: JsonObject,
  files: readonly UploadedFile[],
  errors: FormErrors,
  path: ErrorPath = ['attachments'],
): { refs?: AttachmentRef[]; files: readonly UploadedFile[] } | undefined {
  const raw = getField(model, 'attachments');
  const before = errors.count;
  const refs = readAttachmentRefs(raw, errors, path);
  if (errors.count !== before) return undefined;
  if (refs === undefined && files.length === 0) {
    // `attachments: null` in an edit removes every attachment, as an empty list does.
    return Object.prototype.hasOwnProperty.call(model, 'attachments') ? { refs: [], files } : undefined;
  }
  return { ...(refs !== undefined ? { refs } : {}), files };
}

/** An edit's attachments: the message's after it, those it removes, those it makes. */
export interface AttachmentEdit {
  attachments: MessageAttachment[];
  removed: MessageAttachment[];
  created: MadeAttachment[];
}

/**
 * Applies an edit's files and `attachments` to a message's `current` attachments (Discord's
 * rule: `attachments` is the full list of those to keep, by id, plus the new files; without
 * it every attachment stays and the files are appended). 400 / 50035 ATTACHMENT_NOT_FOUND
 * for an id that is neither a file of the request nor an attachment of the message, 400 /
 * 30015 past ten attachments. `make` gives the new attachments their ids and URLs.
 */
export function planAttachmentEdit(
  current: readonly MessageAttachment[],
  spec: { refs?: AttachmentRef[]; files: readonly UploadedFile[] },
  make: (added: readonly NewAttachment[]) => MadeAttachment[],
): AttachmentEdit {
  const errors = new FormErrors();
  const plan = planAttachments(
    spec.refs,
    spec.files,
    current.map((attachment) => attachment.id),
    errors,
    ['attachments'],
  );
  errors.throwIfAny();
  const keep = plan.keepIds;
  const kept =
    keep === undefined ? [...current] : current.filter((attachment) => keep.includes(attachment.id));
  checkAttachmentCount(kept.length + plan.added.length);
  const created = make(plan.added);
  return {
    attachments: [...kept, ...created.map((made) => made.attachment)],
    removed: current.filter((attachment) => !kept.includes(attachment)),
    created,
  };
}
