import type { JsonObject } from '@acs/validation';
import { applyMessageEdit } from '../messages/apply-message-edit';
import type { MessageAttachment } from '../messages/attachments';
import type { MessageEdit } from '../messages/validate-message';
import type { ChannelAccess } from '../pins/channel-access';
import { authorIdOf, type ChannelMessage } from './channel-message';
import { CannotEditOthersMessageError } from './channel-message-errors';
import { assertMayModerate, assertMayView, mayMentionEveryone, type Caller } from './channel-message-rules';
import { mentionsEveryone, type MentionPolicy } from './mention-policy';

/** Whose edit it is: the author's (every field), or a moderator's (flags only). */
export type EditRole = 'author' | 'moderator';

/**
 * Who may edit (D:resources/message.mdx §Edit Message): the author edits `content`,
 * `embeds`, `flags`, `components` and attachments; anyone else only `flags`, with
 * MANAGE_MESSAGES (403 / 50013; in a DM 403 / 50003), and any other field is 403 / 50005.
 * No VIEW_CHANNEL: 403 / 50001.
 */
export function judgeEdit(
  message: ChannelMessage,
  caller: Caller,
  access: ChannelAccess,
  edit: MessageEdit,
): EditRole {
  assertMayView(access);
  if (authorIdOf(message) === caller.userId) return 'author';
  if (Object.keys(edit).some((field) => field !== 'flags')) throw new CannotEditOthersMessageError();
  assertMayModerate(access);
  return 'moderator';
}

/** What an edit applies besides its body. */
export interface EditContext {
  /** The attachments after the edit (planAttachmentEdit's), when it changes them. */
  attachments?: MessageAttachment[];
  /** A new content's mentions: the users it names that exist, under `policy`. */
  mentionedUsers: JsonObject[];
  policy: MentionPolicy;
  access: ChannelAccess;
  now: Date;
}

/**
 * The message after an edit (applyMessageEdit: the one rule of every message's edits).
 * Changing `content` rebuilds `mentions` and `mention_everyone` with this request's
 * `allowed_mentions` (D §Edit Message); otherwise they stay.
 */
export function planEditMessage(
  message: ChannelMessage,
  edit: MessageEdit,
  context: EditContext,
): ChannelMessage {
  const edited = applyMessageEdit(message, edit, context.now, {
    ...(context.attachments ? { attachments: context.attachments } : {}),
  });
  if (edit.content === undefined) return edited;
  return {
    ...edited,
    mentions: context.mentionedUsers,
    mention_everyone: mayMentionEveryone(context.access) && mentionsEveryone(edited.content, context.policy),
  };
}
