import type { JsonObject } from '@acs/validation';
import type { MessageAttachment } from '../messages/attachments';
import { fieldError } from '@acs/discord-errors';
import { formatTimestamp } from '../messages/format-timestamp';
import { MessageErrorCode as ErrorCode } from '../messages/message-error-codes';
import type { ChannelAccess } from '../pins/channel-access';
import { ChannelMessageType, authorIdOf, type ChannelMessage } from './channel-message';
import {
  assertMaySend,
  assertMayView,
  mayMentionEveryone,
  mayUseTts,
  type Caller,
} from './channel-message-rules';
import { ForwardUnreadableError } from './channel-message-errors';
import { mentionsEveryone } from './mention-policy';
import type { CreateMessageRequest } from './read-create-message';

/** What planning a new message reads: the request, where and by whom, and what the store found. */
export interface CreateMessageFacts {
  /** The new message's id (its snowflake is its creation time). */
  id: string;
  channelId: string;
  caller: Caller;
  /** The caller as others see them (oauth's public user): the message's `author`. */
  author: JsonObject;
  access: ChannelAccess;
  request: CreateMessageRequest;
  /** The attachment objects of the request's files. */
  attachments: MessageAttachment[];
  /** The users of `mentionedUserIds(content)` that exist, in that order. */
  mentionedUsers: JsonObject[];
  /** The roles of `mentionedRoleIds(content)` that are the guild's, in that order (none in a DM). */
  mentionedRoleIds?: string[];
  /** The reply's target when the request names one: this channel's, not deleted nor ephemeral. */
  replyTarget: ChannelMessage | undefined;
  /** With `enforce_nonce`: the caller's message of this nonce within NONCE_WINDOW_MS. */
  earlier: ChannelMessage | undefined;
  /** A forward's source when the request names one: its channel's, not deleted nor ephemeral. */
  forwardSource?: ChannelMessage | undefined;
  /** A forward: what the caller may do in the source's channel (the target's when it is the same). */
  sourceAccess?: ChannelAccess;
  /** A bot's application flags (0 for a user): its MESSAGE_CONTENT toggles. */
  applicationFlags?: number;
  now: Date;
}

/** The row a new channel message is stored as. */
export interface NewMessageRow {
  message: ChannelMessage;
  authorId: string;
  applicationId: string | null;
  guildId: string | null;
  /** The nonce as text, for enforce_nonce's lookup; null without one. */
  nonce: string | null;
}

/** What Create Message does: answer an earlier message (enforce_nonce), or store a new one and announce it. */
export type CreateMessagePlan =
  | { kind: 'existing'; message: ChannelMessage }
  | { kind: 'create'; row: NewMessageRow; answer: ChannelMessage };

/**
 * Plans Create Message (D:resources/message.mdx §Create Message): the permissions first
 * (assertMaySend), then an enforced nonce the caller already sent answers that message and
 * makes nothing; a reply whose target is not there is 400 / 50035
 * MESSAGE_REFERENCE_UNKNOWN_MESSAGE at `message_reference` unless `fail_if_not_exists` is
 * false (then a normal message). The message mentions the users found (and, for a reply
 * whose policy allows it, the target's author), pings everyone only with MENTION_EVERYONE,
 * and keeps `tts` only with SEND_TTS_MESSAGES. `nonce` is in the answer (and MESSAGE_CREATE)
 * but not stored in the message: later reads do not carry it, as on Discord.
 */
export function planCreateMessage(facts: CreateMessageFacts): CreateMessagePlan {
  if (facts.request.forward) return planForward(facts);
  const { request, access } = facts;
  const { input } = request;
  assertMaySend(access, {
    hasEmbeds: input.embeds.length > 0,
    hasFiles: facts.attachments.length > 0,
    isReply: request.reply !== undefined,
  });
  if (facts.earlier) return { kind: 'existing', message: { ...facts.earlier, nonce: request.nonce ?? '' } };
  const target = facts.replyTarget;
  if (request.reply?.failIfNotExists && !target) {
    throw fieldError('message_reference', ErrorCode.MESSAGE_REFERENCE_UNKNOWN_MESSAGE, 'Unknown message');
  }
  const mentions = [...facts.mentionedUsers];
  if (target && request.mentions.repliedUser) {
    const targetAuthor = authorIdOf(target);
    if (targetAuthor !== '' && !mentions.some((user) => user.id === targetAuthor))
      mentions.push(target.author);
  }
  const message: ChannelMessage = {
    type: target ? ChannelMessageType.REPLY : ChannelMessageType.DEFAULT,
    content: input.content,
    mentions,
    mention_roles: mentionableRoles(facts),
    attachments: facts.attachments,
    embeds: input.embeds,
    timestamp: formatTimestamp(facts.now),
    edited_timestamp: null,
    flags: input.flags,
    components: input.components,
    id: facts.id,
    channel_id: facts.channelId,
    author: facts.author,
    pinned: false,
    mention_everyone: mayMentionEveryone(access) && mentionsEveryone(input.content, request.mentions),
    tts: input.tts && mayUseTts(access),
    ...(target
      ? {
          message_reference: {
            type: 0,
            message_id: target.id,
            channel_id: facts.channelId,
            ...(access.guildId === null ? {} : { guild_id: access.guildId }),
          },
          referenced_message: withoutReference(target),
        }
      : {}),
  };
  const nonce = request.nonce;
  return {
    kind: 'create',
    row: {
      message,
      authorId: facts.caller.userId,
      applicationId: facts.caller.applicationId,
      guildId: access.guildId,
      nonce: nonce === undefined ? null : String(nonce),
    },
    answer: nonce === undefined ? message : { ...message, nonce },
  };
}

/**
 * The roles a message pings (D:resources/message.mdx §Allowed Mentions): those its content
 * names that allowed_mentions lets it ping, that are roles of the guild, and that are
 * mentionable or the author holds MENTION_EVERYONE. ACS roles have no `mentionable` toggle
 * (every role renders `mentionable: false`), so MENTION_EVERYONE decides.
 */
function mentionableRoles(facts: CreateMessageFacts): string[] {
  return mayMentionEveryone(facts.access) ? [...(facts.mentionedRoleIds ?? [])] : [];
}

/** A replied message as a reply embeds it: one level deep (its own target is not repeated). */
function withoutReference(message: ChannelMessage): JsonObject {
  const embedded: JsonObject = { ...message };
  delete embedded.referenced_message;
  delete embedded.nonce;
  return embedded;
}

/** GATEWAY_MESSAGE_CONTENT (1 << 18) and its LIMITED form (1 << 19) (D:resources/application.mdx §Application Flags). */
const MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19);
/** HAS_SNAPSHOT (1 << 14): a forward (D:resources/message.mdx §Message Flags). */
const HAS_SNAPSHOT = 1 << 14;

/**
 * A forward (D:resources/message.mdx §Message Reference Types, FORWARD): SEND_MESSAGES in the
 * target, VIEW_CHANNEL in the source's channel (403 / 50001), a source that is there (400 /
 * 50035 MESSAGE_REFERENCE_UNKNOWN_MESSAGE), and, for a bot, content it may read (403 /
 * 160014). The new message (type 0, flag HAS_SNAPSHOT) carries `message_reference` type 1
 * and one immutable snapshot of the source, without its author.
 */
function planForward(facts: CreateMessageFacts): CreateMessagePlan {
  const { request, access } = facts;
  assertMaySend(access, { hasEmbeds: false, hasFiles: false, isReply: false });
  if (facts.earlier) return { kind: 'existing', message: { ...facts.earlier, nonce: request.nonce ?? '' } };
  const sourceAccess = facts.sourceAccess ?? access;
  assertMayView(sourceAccess);
  const source = facts.forwardSource;
  if (!source) {
    throw fieldError('message_reference', ErrorCode.MESSAGE_REFERENCE_UNKNOWN_MESSAGE, 'Unknown message');
  }
  if (!mayReadContentOf(source, facts.caller, facts.applicationFlags ?? 0, sourceAccess)) {
    throw new ForwardUnreadableError();
  }
  const message: ChannelMessage = {
    type: ChannelMessageType.DEFAULT,
    content: '',
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    timestamp: formatTimestamp(facts.now),
    edited_timestamp: null,
    flags: request.input.flags | HAS_SNAPSHOT,
    components: [],
    id: facts.id,
    channel_id: facts.channelId,
    author: facts.author,
    pinned: false,
    mention_everyone: false,
    tts: false,
    message_reference: {
      type: 1,
      message_id: source.id,
      channel_id: source.channel_id,
      ...(sourceAccess.guildId === null ? {} : { guild_id: sourceAccess.guildId }),
    },
    message_snapshots: [{ message: snapshotOf(source) }],
  };
  return {
    kind: 'create',
    row: {
      message,
      authorId: facts.caller.userId,
      applicationId: facts.caller.applicationId,
      guildId: access.guildId,
      nonce: request.nonce === undefined ? null : String(request.nonce),
    },
    answer: request.nonce === undefined ? message : { ...message, nonce: request.nonce },
  };
}

/**
 * Whether the caller may read the message's content (D:events/gateway.mdx §Message Content
 * Intent): a user always; a bot with a MESSAGE_CONTENT toggle, or for its own messages,
 * those that mention it, and DMs.
 */
function mayReadContentOf(
  message: ChannelMessage,
  caller: Caller,
  applicationFlags: number,
  access: ChannelAccess,
): boolean {
  if (caller.applicationId === null || (applicationFlags & MESSAGE_CONTENT_FLAGS) !== 0) return true;
  if (access.guildId === null || authorIdOf(message) === caller.userId) return true;
  return message.mentions.some((user) => user.id === caller.userId);
}

/** A message snapshot's `message` (D §Message Snapshot Object): its content, no author, no ids of its own. */
function snapshotOf(source: ChannelMessage): JsonObject {
  return {
    type: source.type,
    content: source.content,
    embeds: source.embeds,
    attachments: source.attachments,
    timestamp: source.timestamp,
    edited_timestamp: source.edited_timestamp,
    flags: source.flags,
    mentions: source.mentions,
    mention_roles: source.mention_roles,
    stickers: [],
    sticker_items: [],
    components: source.components,
  };
}
