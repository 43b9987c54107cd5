// The body of Create Message (D:resources/message.mdx §Create Message; OAS
// `MessageCreateRequest`): the fields every message shares are read by the one message
// validator (collectMessageErrors), the channel route's own here.
import {
  FormErrors,
  checkLength,
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
import { InvalidFormBodyError } from '@acs/discord-errors';
import type { UploadedFile } from '../messages/attachments';
import { checkWellFormedText } from '../messages/check-well-formed';
import { MessageErrorCode as ErrorCode } from '../messages/message-error-codes';
import { EmptyMessageError } from '../messages/message-errors';
import { MessageFlag, hasFlag } from '../messages/message-flags';
import { MAX_NONCE_LENGTH } from '../messages/message-limits';
import { collectMessageErrors, isEmptyMessage, type MessageInput } from '../messages/validate-message';
import { InvalidStickerError } from './channel-message-errors';
import { readMentionPolicy, type MentionPolicy } from './mention-policy';

/** A reply's target, as the body names it. */
export interface ReplyReference {
  messageId: string;
  /** When false, an unknown target makes a normal message instead of an error (default true). */
  failIfNotExists: boolean;
}

/** A forward's source, as the body names it (`message_reference.type` 1). */
export interface ForwardReference {
  messageId: string;
  channelId: string;
}

/** A Create Message body that passed every rule of its own. */
export interface CreateMessageRequest {
  input: MessageInput;
  /** As sent (a string, or an integer): echoed in the answer and in MESSAGE_CREATE. */
  nonce: string | number | undefined;
  enforceNonce: boolean;
  reply: ReplyReference | undefined;
  /** A forward: the message carries nothing else (its snapshot is its content). */
  forward: ForwardReference | undefined;
  mentions: MentionPolicy;
}

/**
 * Reads a Create Message body with the request's `files`: 400 / 50109 for text that is no
 * Unicode, 400 / 50035 with every error found, 400 / 50081 for `sticker_ids` (ACS has no
 * stickers: every id is unknown), else 400 / 50006 when the message would show nothing.
 */
export function readCreateMessage(
  raw: unknown,
  files: readonly UploadedFile[] = [],
  channelId: string,
): CreateMessageRequest {
  checkWellFormedText(raw);
  const errors = new FormErrors();
  const model = readModel(raw, errors, []);
  if (!model) throw new InvalidFormBodyError(errors.toJSON());
  const input = collectMessageErrors(model, errors, [], files);
  const nonce = readNonce(getField(model, 'nonce'), errors, ['nonce']);
  const rawEnforce = getField(model, 'enforce_nonce');
  const enforceNonce = isAbsent(rawEnforce) ? false : readBoolean(rawEnforce, errors, ['enforce_nonce']);
  const reference = readReference(getField(model, 'message_reference'), channelId, errors, [
    'message_reference',
  ]);
  const stickers = getField(model, 'sticker_ids');
  const stickerIds = isAbsent(stickers) ? [] : readList(stickers, errors, ['sticker_ids']);
  if (input && hasFlag(input.flags, MessageFlag.EPHEMERAL)) {
    // Only interaction responses are ephemeral (D §Message Flags: EPHEMERAL "only for interactions").
    errors.add(
      ['flags'],
      ErrorCode.MESSAGE_FLAGS_INVALID,
      'EPHEMERAL (1 << 6) is only for interaction responses',
    );
  }
  const forward = reference?.kind === 'forward' ? reference : undefined;
  if (forward && input && !isEmptyMessage({ ...input, attachments: input.newAttachments })) {
    // [Inf] A forward is its snapshot alone (the client sends a comment as a message of its own).
    errors.add(
      ['message_reference'],
      ErrorCode.MESSAGE_REFERENCE_FORWARD_WITH_CONTENT,
      'A forward carries no content, embeds, components or files of its own',
    );
  }
  errors.throwIfAny();
  if (!input) throw new InvalidFormBodyError(errors.toJSON());
  if (stickerIds && stickerIds.length > 0) throw new InvalidStickerError();
  if (!forward && isEmptyMessage({ ...input, attachments: input.newAttachments }))
    throw new EmptyMessageError();
  return {
    input,
    nonce,
    enforceNonce: enforceNonce === true && nonce !== undefined,
    reply: reference?.kind === 'reply' ? reference : undefined,
    forward: forward ? { messageId: forward.messageId, channelId: forward.channelId } : undefined,
    mentions: readMentionPolicy(getField(model, 'allowed_mentions')),
  };
}

// `nonce`: an integer (int64; JSON numbers are exact up to 2^53) or a string of at most 25 characters.
function readNonce(raw: unknown, errors: FormErrors, path: ErrorPath): string | number | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw === 'number') {
    const value = readInteger(raw, errors, path);
    if (value === undefined) return undefined;
    if (!Number.isSafeInteger(value)) {
      errors.add(
        path,
        ErrorCode.NUMBER_TYPE_MAX,
        'int value should be less than or equal to 9007199254740991.',
      );
      return undefined;
    }
    return value;
  }
  const text = readString(raw, errors, path);
  if (text === undefined || !checkLength(text, 0, MAX_NONCE_LENGTH, errors, path)) return undefined;
  return text;
}

/**
 * `message_reference` (D §Message Reference Structure): a reply (`type` 0 or absent) names a
 * `message_id` of this channel (`channel_id`, when given, must be this one); a forward
 * (`type` 1) names its source's `message_id` and `channel_id` (both required).
 */
function readReference(
  raw: unknown,
  channelId: string,
  errors: FormErrors,
  path: ErrorPath,
): ((ReplyReference & { kind: 'reply' }) | (ForwardReference & { kind: 'forward' })) | undefined {
  if (isAbsent(raw)) return undefined;
  const model = readModel(raw, errors, path);
  if (!model) return undefined;
  const at = (key: string): ErrorPath => [...path, key];
  const rawType = getField(model, 'type');
  const type = isAbsent(rawType) ? 0 : readInteger(rawType, errors, at('type'));
  if (type !== undefined && type !== 0 && type !== 1) {
    errors.add(at('type'), ErrorCode.BASE_TYPE_CHOICES, 'Value must be one of (0, 1).');
  }
  const required = (key: string): string | undefined => {
    const value = getField(model, key);
    if (isAbsent(value)) {
      errors.add(at(key), ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
      return undefined;
    }
    return readSnowflake(value, errors, at(key));
  };
  const messageId = required('message_id');
  const rawGuild = getField(model, 'guild_id');
  if (!isAbsent(rawGuild)) readSnowflake(rawGuild, errors, at('guild_id'));
  const rawFail = getField(model, 'fail_if_not_exists');
  const fail = isAbsent(rawFail) ? true : readBoolean(rawFail, errors, at('fail_if_not_exists'));
  if (type === 1) {
    const source = required('channel_id');
    if (messageId === undefined || source === undefined) return undefined;
    return { kind: 'forward', messageId, channelId: source };
  }
  const rawChannel = getField(model, 'channel_id');
  if (!isAbsent(rawChannel)) {
    const id = readSnowflake(rawChannel, errors, at('channel_id'));
    if (id !== undefined && id !== channelId) {
      errors.add(
        at('channel_id'),
        ErrorCode.MESSAGE_REFERENCE_INVALID_CHANNEL,
        'A reply must reference a message of the same channel',
      );
    }
  }
  if (type !== 0 || messageId === undefined || fail === undefined) return undefined;
  return { kind: 'reply', messageId, failIfNotExists: fail };
}
