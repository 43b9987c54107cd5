import { MissingAccessError, MissingPermissionsError } from '@acs/discord-errors';
import { Permission } from '../interaction-enums';

/** A user's place in a channel, as permissions describes it. */
export interface ChannelAccess {
  /** Null for a DM or group DM. */
  guildId: string | null;
  /** A member of the channel's guild, or a recipient of the DM. */
  isMember: boolean;
  /** The user's permissions in the channel (overwrites applied). */
  permissions: bigint;
  /** A DM's recipients; empty for a guild channel. */
  recipientIds: string[];
  /** A guild channel: the user's roles in the guild (AutoMod's exempt roles). */
  roleIds?: readonly string[];
}

/** Who cannot see the channel learns nothing of its messages: 403 / 50001. */
function assertMayView(access: ChannelAccess): void {
  const { VIEW_CHANNEL } = Permission;
  if (!access.isMember || (access.permissions & VIEW_CHANNEL) !== VIEW_CHANNEL)
    throw new MissingAccessError();
}

/**
 * Pinning and unpinning take PIN_MESSAGES in the channel (D:resources/message.mdx §Pin
 * Message), which MANAGE_MESSAGES no longer grants (D:change-log.mdx, "Permission Changes
 * Going into Effect February 2026"): 403 / 50013 naming it otherwise.
 */
export function assertMayPin(access: ChannelAccess): void {
  assertMayView(access);
  const { PIN_MESSAGES } = Permission;
  if ((access.permissions & PIN_MESSAGES) !== PIN_MESSAGES)
    throw new MissingPermissionsError(['PIN_MESSAGES']);
}

/**
 * Listing pins takes VIEW_CHANNEL (403 / 50001 otherwise); without READ_MESSAGE_HISTORY the
 * list is empty (D:resources/message.mdx §Get Channel Pins). Whether the user may read them.
 */
export function mayReadPins(access: ChannelAccess): boolean {
  assertMayView(access);
  const { READ_MESSAGE_HISTORY } = Permission;
  return (access.permissions & READ_MESSAGE_HISTORY) === READ_MESSAGE_HISTORY;
}
