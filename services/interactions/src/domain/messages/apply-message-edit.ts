import { FormErrors, type ErrorPath, type JsonObject } from '@acs/validation';
import type { MessageAttachment } from './attachments';
import { checkAttachmentUrls } from './components/check-attachment-urls';
import { readMessageComponents } from './components/read-message-components';
import { formatTimestamp } from './format-timestamp';
import { EDITABLE_MESSAGE_FLAGS, MessageFlag, hasFlag } from './message-flags';
import { EmptyMessageError } from './message-errors';
import type { InteractionMessage } from './render-message';
import { checkComponentsV2, isEmptyMessage, type MessageEdit, type MessageInput } from './validate-message';

/**
 * What an edit reads and writes of a message: an interaction's message or a channel
 * message (POST /channels/{id}/messages) alike.
 */
export type EditableMessage = Pick<
  InteractionMessage,
  'content' | 'embeds' | 'tts' | 'flags' | 'components' | 'attachments' | 'edited_timestamp'
>;

/** Whether a message is a deferred response that has no content yet. */
export function isLoading(message: Pick<InteractionMessage, 'flags'>): boolean {
  return hasFlag(message.flags, MessageFlag.LOADING);
}

/**
 * The message after an edit (PATCH): each field the edit has replaces the message's;
 * SUPPRESS_EMBEDS follows the edit, IS_COMPONENTS_V2 can only be turned on, and every
 * other flag stays as it was. A loading message gets its content: it loses LOADING and,
 * as on Discord, is not marked edited (the client shows the answer, not an edit); any
 * other message gets `edited_timestamp`. The edit's `components` are read against the
 * flags the message ends up with (at `basePath`); `attachments` is the message's list after
 * the edit (planAttachmentEdit's), its own by default. 50035 when the result mixes
 * components-v2 with content or embeds, 50006 when it would show nothing.
 */
export function applyMessageEdit<M extends EditableMessage>(
  message: M,
  edit: MessageEdit,
  now: Date,
  {
    basePath = [],
    attachments = message.attachments,
  }: { basePath?: ErrorPath; attachments?: MessageAttachment[] } = {},
): M {
  let flags = message.flags;
  if (edit.flags !== undefined) {
    const kept = flags & ~MessageFlag.SUPPRESS_EMBEDS;
    flags = kept | (edit.flags & EDITABLE_MESSAGE_FLAGS);
  }
  let components = message.components;
  if (edit.components !== undefined) {
    const errors = new FormErrors();
    const isV2 = hasFlag(flags, MessageFlag.IS_COMPONENTS_V2);
    const read = readMessageComponents(edit.components, isV2, errors, [...basePath, 'components']);
    errors.throwIfAny();
    components = read as JsonObject[];
  }
  if (edit.components !== undefined || attachments !== message.attachments) {
    // `attachment://<filename>` names one of the attachments the message has after the edit.
    const errors = new FormErrors();
    const names = new Set(attachments.map((attachment) => attachment.filename));
    checkAttachmentUrls(components ?? [], names, errors, [...basePath, 'components']);
    errors.throwIfAny();
  }
  return finishEdit(
    message,
    {
      content: edit.content ?? message.content,
      embeds: edit.embeds ?? message.embeds,
      tts: message.tts,
      flags,
      components,
      attachments,
    },
    now,
    basePath,
  );
}

/**
 * A follow-up posted right after a deferred response fills the loading message instead of
 * posting a new one (A5, Discord's backward-compatible behaviour): the new body replaces
 * the loading message's, whose EPHEMERAL flag stays whatever the defer chose.
 */
export function completeLoadingMessage(
  message: InteractionMessage,
  input: MessageInput,
  now: Date,
  attachments: MessageAttachment[] = [],
): InteractionMessage {
  return finishEdit(
    message,
    {
      content: input.content,
      embeds: input.embeds,
      tts: input.tts,
      flags: message.flags | (input.flags & ~MessageFlag.EPHEMERAL),
      components: input.components,
      attachments,
    },
    now,
  );
}

function finishEdit<M extends EditableMessage>(
  message: M,
  next: Pick<EditableMessage, 'content' | 'embeds' | 'tts' | 'flags' | 'components' | 'attachments'>,
  now: Date,
  basePath: ErrorPath = [],
): M {
  const wasLoading = isLoading(message);
  const flags = next.flags & ~MessageFlag.LOADING;
  const errors = new FormErrors();
  checkComponentsV2(flags, next.content, next.embeds, errors, basePath);
  errors.throwIfAny();
  if (isEmptyMessage(next)) throw new EmptyMessageError();
  return {
    ...message,
    content: next.content,
    embeds: next.embeds,
    tts: next.tts,
    flags,
    components: next.components,
    attachments: next.attachments,
    edited_timestamp: wasLoading ? message.edited_timestamp : formatTimestamp(now),
  };
}
