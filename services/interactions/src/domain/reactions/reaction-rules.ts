import { MissingPermissionsError } from '@acs/discord-errors';
import { hasPermissions } from '@acs/validation';
import { Permission } from '../interaction-enums';
import { assertMayModerate, assertMayView } from '../channel-messages/channel-message-rules';
import type { ChannelAccess } from '../pins/channel-access';

/**
 * Create Reaction (D:resources/message.mdx §Create Reaction): VIEW_CHANNEL (403 / 50001),
 * READ_MESSAGE_HISTORY always, and ADD_REACTIONS when no one has reacted with the emoji yet
 * (403 / 50013 naming the one missing).
 */
export function assertMayReact(access: ChannelAccess, isNewEmoji: boolean): void {
  assertMayView(access);
  if (!hasPermissions(access.permissions, Permission.READ_MESSAGE_HISTORY)) {
    throw new MissingPermissionsError(['READ_MESSAGE_HISTORY']);
  }
  if (isNewEmoji && !hasPermissions(access.permissions, Permission.ADD_REACTIONS)) {
    throw new MissingPermissionsError(['ADD_REACTIONS']);
  }
}

/** Reading reactions takes what reading the message does ([Inf]): VIEW_CHANNEL and READ_MESSAGE_HISTORY. */
export function assertMayReadReactions(access: ChannelAccess): void {
  assertMayView(access);
  if (!hasPermissions(access.permissions, Permission.READ_MESSAGE_HISTORY)) {
    throw new MissingPermissionsError(['READ_MESSAGE_HISTORY']);
  }
}

/**
 * Removing others' reactions (one user's, all, or one emoji's): MANAGE_MESSAGES in a guild
 * (403 / 50013), never in a DM (403 / 50003, [Inf]).
 */
export function assertMayManageReactions(access: ChannelAccess): void {
  assertMayView(access);
  assertMayModerate(access);
}
