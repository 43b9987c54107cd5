// Who may do what with a channel's messages (D:topics/permissions.mdx; D:resources/message.mdx;
// shared/reference/messages-and-provisional-accounts.md B.1). `access` is permissions' answer
// for the caller in the channel, overwrites applied (in a DM, the fixed set of a recipient).
import { MissingAccessError, MissingPermissionsError } from '@acs/discord-errors';
import { hasPermissions, type PermissionName } from '@acs/validation';
import { Permission } from '../interaction-enums';
import type { ChannelAccess } from '../pins/channel-access';
import { DmChannelActionError, ReplyWithoutHistoryError } from './channel-message-errors';

/** Who calls: a user's session, or a bot (its user id is its application's id). */
export interface Caller {
  userId: string;
  /** The bot's application; null for a user. */
  applicationId: string | null;
}

/** Whether `access` holds every permission named. */
function holds(access: ChannelAccess, ...names: PermissionName[]): boolean {
  return hasPermissions(
    access.permissions,
    names.reduce((bits, name) => bits | Permission[name], 0n),
  );
}

/** Who cannot see the channel learns nothing of its messages: 403 / 50001. */
export function assertMayView(access: ChannelAccess): void {
  if (!access.isMember || !holds(access, 'VIEW_CHANNEL')) throw new MissingAccessError();
}

/** Whether the caller may read the channel's history (Get Channel Messages is empty otherwise). */
export function mayReadHistory(access: ChannelAccess): boolean {
  assertMayView(access);
  return holds(access, 'READ_MESSAGE_HISTORY');
}

/**
 * Get Channel Message takes VIEW_CHANNEL (403 / 50001) and READ_MESSAGE_HISTORY (403 / 50013
 * naming it: [Inf], Discord documents the need, not the code).
 */
export function assertMayReadMessage(access: ChannelAccess): void {
  if (!mayReadHistory(access)) throw new MissingPermissionsError(['READ_MESSAGE_HISTORY']);
}

/** What a new message needs beyond SEND_MESSAGES. */
export interface SendNeeds {
  hasEmbeds: boolean;
  hasFiles: boolean;
  isReply: boolean;
}

/**
 * Create Message: VIEW_CHANNEL (403 / 50001), SEND_MESSAGES (403 / 50013), EMBED_LINKS for
 * rich embeds and ATTACH_FILES for files (403 / 50013 naming them, as the real API answers a
 * bot without them), READ_MESSAGE_HISTORY for a reply (403 / 160002). TTS without
 * SEND_TTS_MESSAGES is not refused: the message is sent without it (see mayUseTts).
 */
export function assertMaySend(access: ChannelAccess, needs: SendNeeds): void {
  assertMayView(access);
  if (!holds(access, 'SEND_MESSAGES')) throw new MissingPermissionsError(['SEND_MESSAGES']);
  const missing: PermissionName[] = [];
  if (needs.hasEmbeds && !holds(access, 'EMBED_LINKS')) missing.push('EMBED_LINKS');
  if (needs.hasFiles && !holds(access, 'ATTACH_FILES')) missing.push('ATTACH_FILES');
  if (missing.length > 0) throw new MissingPermissionsError(missing);
  if (needs.isReply && !holds(access, 'READ_MESSAGE_HISTORY')) throw new ReplyWithoutHistoryError();
}

/**
 * Trigger Typing Indicator: VIEW_CHANNEL (403 / 50001) and SEND_MESSAGES (403 / 50013).
 * Discord documents no permission for it ([Inf], B.1): one who may not send has nothing to
 * be typing.
 */
export function assertMayType(access: ChannelAccess): void {
  assertMaySend(access, { hasEmbeds: false, hasFiles: false, isReply: false });
}

/** Whether a message's `tts` stands: SEND_TTS_MESSAGES ([Inf] dropped silently without it). */
export function mayUseTts(access: ChannelAccess): boolean {
  return holds(access, 'SEND_TTS_MESSAGES');
}

/** Whether `@everyone` / `@here` ping: MENTION_EVERYONE, in a guild. */
export function mayMentionEveryone(access: ChannelAccess): boolean {
  return access.guildId !== null && holds(access, 'MENTION_EVERYONE');
}

/**
 * Acting on another user's message (deleting it, editing its flags): MANAGE_MESSAGES in a
 * guild (403 / 50013); never in a DM (403 / 50003).
 */
export function assertMayModerate(access: ChannelAccess): void {
  if (access.guildId === null) throw new DmChannelActionError();
  if (!holds(access, 'MANAGE_MESSAGES')) throw new MissingPermissionsError(['MANAGE_MESSAGES']);
}

/**
 * Bulk Delete Messages: a guild channel only (403 / 50003 in a DM), VIEW_CHANNEL (403 /
 * 50001) and MANAGE_MESSAGES (403 / 50013), whoever wrote the messages.
 */
export function assertMayBulkDelete(access: ChannelAccess): void {
  assertMayView(access);
  assertMayModerate(access);
}
