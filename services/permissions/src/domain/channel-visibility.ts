import { checkPermissions, type PermissionContext } from './check-permissions';
import { ChannelType, isThreadType } from './channel-types';
import type { Channel } from './guild-model';
import { PERMISSION_FLAGS } from './permission-flags';

/** Who is looking: the guild-level facts of `checkPermissions`, without a channel. */
export type ViewerContext = Omit<PermissionContext, 'channel'>;

/**
 * The ids of the guild's channels and threads the viewer may view (D:topics/permissions.mdx
 * §Channel Visibility, with the 2026 channel obfuscation change): VIEW_CHANNEL after the
 * channel's overwrites (a thread: its parent channel's); a category is viewable also when
 * one of its channels is. The guild owner and administrators view everything; a
 * non-member views nothing. Being connected to a voice channel also makes it viewable on
 * Discord: ACS records no voice connections of bots here.
 */
export function visibleChannelIds(viewer: ViewerContext, channels: readonly Channel[]): Set<string> {
  const byId = new Map(channels.map((c) => [c.id, c]));
  const visible = new Set<string>();
  if (!viewer.member) return visible;
  const mayView = (channel: Channel): boolean => {
    const parent = channel.parentId === null ? undefined : byId.get(channel.parentId);
    return checkPermissions(
      {
        ...viewer,
        channel: {
          type: channel.type,
          overwrites: channel.overwrites,
          parent: parent ? { overwrites: parent.overwrites } : null,
        },
      },
      PERMISSION_FLAGS.VIEW_CHANNEL,
    ).allowed;
  };
  for (const channel of channels) {
    if (!isThreadType(channel.type) && mayView(channel)) visible.add(channel.id);
  }
  for (const channel of channels) {
    if (channel.parentId === null) continue;
    if (isThreadType(channel.type)) {
      // A thread is seen through its parent channel (its overwrites are the parent's).
      if (visible.has(channel.parentId)) visible.add(channel.id);
    } else if (visible.has(channel.id) && byId.get(channel.parentId)?.type === ChannelType.GUILD_CATEGORY) {
      visible.add(channel.parentId);
    }
  }
  return visible;
}

/**
 * Whether the viewer holds every bit of `required` in the guild channel `channel` (its
 * overwrites and its category's applied, and the implicit denials), e.g. READ_MESSAGE_HISTORY
 * where message search looks.
 */
export function holdsInChannel(
  viewer: ViewerContext,
  channel: Channel,
  channelsById: ReadonlyMap<string, Channel>,
  required: bigint,
): boolean {
  const parent = channel.parentId === null ? undefined : channelsById.get(channel.parentId);
  return checkPermissions(
    {
      ...viewer,
      channel: {
        type: channel.type,
        overwrites: channel.overwrites,
        parent: parent ? { overwrites: parent.overwrites } : null,
      },
    },
    required,
  ).allowed;
}
