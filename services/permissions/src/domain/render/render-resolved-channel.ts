import type { Channel } from '../guild-model';
import { renderChannel } from './render-channel';

/**
 * The fields a channel of an interaction's `resolved.channels` may carry (facts A2, from
 * UD interactions/receiving-and-responding.mdx §Resolved Data Structure); `thread_metadata`
 * only on threads. Fields the full channel object does not have for a type stay absent.
 */
const RESOLVED_CHANNEL_FIELDS = [
  'id',
  'name',
  'type',
  'permissions',
  'app_permissions',
  'last_message_id',
  'last_pin_timestamp',
  'nsfw',
  'parent_id',
  'guild_id',
  'flags',
  'rate_limit_per_user',
  'topic',
  'position',
  'thread_metadata',
] as const;

/**
 * A partial channel of `resolved.channels`: the channel as `renderChannel` shows it, cut
 * to the resolved fields, with `permissions` (the invoker's there) and `app_permissions`
 * (the app's there) as decimal strings.
 */
export function renderResolvedChannel(
  channel: Channel,
  threadOwnerId: string,
  permissions: bigint,
  appPermissions: bigint,
): Record<string, unknown> {
  const full: Record<string, unknown> = {
    ...renderChannel(channel, threadOwnerId),
    permissions: permissions.toString(),
    app_permissions: appPermissions.toString(),
  };
  const resolved: Record<string, unknown> = {};
  for (const field of RESOLVED_CHANNEL_FIELDS) if (field in full) resolved[field] = full[field];
  return resolved;
}
