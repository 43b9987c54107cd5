import type { CheckedEvent } from '@acs/events';
import type { GatewayRoute } from './gateway-route';

/** The permissions service's channel events, which become CHANNEL_* dispatches. */
export const CHANNEL_EVENTS = [
  'permissions.channel.created',
  'permissions.channel.updated',
  'permissions.channel.deleted',
] as const;

/** A channel event, checked against the catalog. */
export type ChannelEvent = CheckedEvent<(typeof CHANNEL_EVENTS)[number]>;

const DISPATCH_OF = {
  'permissions.channel.created': 'CHANNEL_CREATE',
  'permissions.channel.updated': 'CHANNEL_UPDATE',
  'permissions.channel.deleted': 'CHANNEL_DELETE',
} as const;

const THREAD_DISPATCH_OF = {
  'permissions.channel.created': 'THREAD_CREATE',
  'permissions.channel.updated': 'THREAD_UPDATE',
  'permissions.channel.deleted': 'THREAD_DELETE',
} as const;

/** Thread types (D:resources/channel.mdx §Channel Types). */
const THREAD_TYPES: readonly number[] = [10, 11, 12];

/** Whether the event is a channel event. */
export function isChannelEvent(event: CheckedEvent): event is ChannelEvent {
  return (CHANNEL_EVENTS as readonly string[]).includes(event.name);
}

/**
 * CHANNEL_CREATE / CHANNEL_UPDATE / CHANNEL_DELETE (D:events/gateway-events.mdx §Channel
 * Create, GUILDS intent) for the bot sessions in the channel's guild, on its shard; for a
 * thread THREAD_CREATE / THREAD_UPDATE / THREAD_DELETE, the last with only `id`,
 * `guild_id`, `parent_id` and `type` (§Thread Delete). The channel travels as permissions
 * rendered it; each session that asked for obfuscation shows it as its bot may view it, and
 * catches up on the guild's other channels, since a changed overwrite can change what the
 * bot may view.
 */
export function planChannelEvent(event: ChannelEvent): GatewayRoute[] {
  const { guild_id: guildId, channel } = event.data;
  if (!THREAD_TYPES.includes(channel.type)) {
    return [{ to: 'guild-bots', message: { kind: 'channel', t: DISPATCH_OF[event.name], guildId, channel } }];
  }
  const t = THREAD_DISPATCH_OF[event.name];
  const d =
    t === 'THREAD_DELETE'
      ? { id: channel.id, guild_id: guildId, parent_id: channel.parent_id ?? null, type: channel.type }
      : channel;
  return [{ to: 'guild-bots', message: { kind: 'channel', t, guildId, channel: d } }];
}

/**
 * What the bots of a guild may view can have changed (a role's permissions, a member's
 * roles): each session that asked for obfuscation compares what it was told with what its
 * bot may view now and gets a CHANNEL_UPDATE (THREAD_UPDATE) for each channel that flipped.
 */
export function onGuildPermissionsChanged(guildId: string): GatewayRoute {
  return { to: 'guild-bots', message: { kind: 'recheck', guildId } };
}
