import { DmChannelType, type DmChannel } from '../dm/dm-channel-model';

/**
 * Renders a DM or group DM channel as OAS `PrivateChannelResponse` /
 * `PrivateGroupChannelResponse` show it, without `recipients`: those are user objects,
 * which belong to oauth, so the caller adds them from the recipient ids. ACS stores no
 * messages in these channels yet (`last_message_id` null), and group DMs have no name or
 * icon until they can be edited. A group DM an application's bot created carries that
 * `application_id` and `managed: true` (D:resources/channel.mdx §Channel Structure: "for
 * group DMs, this is the application that created the group"; D:change-log.mdx August 5,
 * 2026: group DMs keep serializing it as a snowflake); others have neither field.
 */
export function renderDmChannel(channel: DmChannel): Record<string, unknown> {
  const json = { id: channel.id, type: channel.type, last_message_id: null, flags: 0 };
  if (channel.type === DmChannelType.DM) return json;
  return {
    ...json,
    name: null,
    icon: null,
    owner_id: channel.ownerId,
    ...(channel.applicationId === null ? {} : { application_id: channel.applicationId, managed: true }),
  };
}
