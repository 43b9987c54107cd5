import type { CheckedEvent } from '@acs/events';
import { Intent } from './gateway-codes';
import type { GatewayRoute } from './gateway-route';

/**
 * The interactions service's events about a channel's messages (`POST /channels/{id}/messages`,
 * its edits and deletions) and their reactions.
 */
export const CHANNEL_MESSAGE_EVENTS = [
  'interactions.channel_message.created',
  'interactions.channel_message.updated',
  'interactions.channel_message.deleted',
  'interactions.channel_message.bulk_deleted',
  'interactions.reaction.added',
  'interactions.reaction.removed',
  'interactions.reaction.removed_all',
  'interactions.reaction.removed_emoji',
  'interactions.typing.started',
] as const;

/** GUILD_MESSAGE_REACTIONS (1 << 10) and DIRECT_MESSAGE_REACTIONS (1 << 13) (D:events/gateway.mdx §List of Intents). */
const GUILD_MESSAGE_REACTIONS = 1 << 10;
const DIRECT_MESSAGE_REACTIONS = 1 << 13;
/** GUILD_MESSAGE_TYPING (1 << 11) and DIRECT_MESSAGE_TYPING (1 << 14) (D:events/gateway.mdx §List of Intents). */
const GUILD_MESSAGE_TYPING = 1 << 11;
const DIRECT_MESSAGE_TYPING = 1 << 14;

/** A channel message event, checked against the catalog. */
export type ChannelMessageEvent = CheckedEvent<(typeof CHANNEL_MESSAGE_EVENTS)[number]>;

/** Whether an event is one of CHANNEL_MESSAGE_EVENTS. */
export function isChannelMessageEvent(event: CheckedEvent): event is ChannelMessageEvent {
  return (CHANNEL_MESSAGE_EVENTS as readonly string[]).includes(event.name);
}

/** The guild a channel message event is in; null for a DM. */
export function guildOfChannelMessageEvent(event: ChannelMessageEvent): string | null {
  return event.data.guild_id;
}

/**
 * The dispatches of a channel message or reaction event (D:events/gateway-events.mdx
 * §Messages; D:events/gateway.mdx §List of Intents):
 * - in a guild: every user session that may view the channel, and the sessions of each of
 *   the guild's bots `guildBotIds` (on its shard, with GUILD_MESSAGES; reactions with
 *   GUILD_MESSAGE_REACTIONS; TYPING_START with GUILD_MESSAGE_TYPING) whose bot may view it;
 * - in a DM: each recipient's sessions, as a user and as a bot (with DIRECT_MESSAGES;
 *   reactions with DIRECT_MESSAGE_REACTIONS; TYPING_START with DIRECT_MESSAGE_TYPING): a
 *   recipient is one or the other, and nothing subscribes to the other subject.
 * The message object carries `guild_id` in a guild. A bot session without the
 * MESSAGE_CONTENT intent gets it with `content`, `embeds`, `attachments` and `components`
 * empty and no `poll` (withoutContent), except the bot's own messages, those that mention
 * it, and every DM (D:events/gateway.mdx §Message Content Intent).
 */
export function planChannelMessageEvent(
  event: ChannelMessageEvent,
  guildBotIds: readonly string[],
): GatewayRoute[] {
  const { guild_id: guildId, channel_id: channelId } = event.data;
  const [t, body, message] = dispatchOf(event);
  const d = withGuildId(body, guildId);
  const kind = event.name.startsWith('interactions.reaction.')
    ? 'reaction'
    : event.name === 'interactions.typing.started'
      ? 'typing'
      : 'message';
  const routes: GatewayRoute[] = [];
  if (guildId === null) {
    const intent = {
      reaction: DIRECT_MESSAGE_REACTIONS,
      typing: DIRECT_MESSAGE_TYPING,
      message: Intent.DIRECT_MESSAGES,
    }[kind];
    for (const userId of new Set(event.data.recipient_ids)) {
      routes.push({ to: 'user', userId, message: { t, d, sessionId: null } });
      routes.push({
        to: 'bot',
        applicationId: userId,
        message: { kind: 'dispatch', t, d, guildId: null, intent },
      });
    }
    return routes;
  }
  routes.push({ to: 'channel-viewers', message: { t, d, guildId, channelId } });
  const intent = {
    reaction: GUILD_MESSAGE_REACTIONS,
    typing: GUILD_MESSAGE_TYPING,
    message: Intent.GUILD_MESSAGES,
  }[kind];
  for (const applicationId of new Set(guildBotIds)) {
    const readsContent = !message || isOwnOrMentioning(message, applicationId);
    routes.push({
      to: 'bot',
      applicationId,
      message: {
        kind: 'dispatch',
        t,
        d,
        guildId,
        intent,
        channelId,
        ...(readsContent ? {} : { withoutContent: withoutContent(d) }),
      },
    });
  }
  return routes;
}

/**
 * An event's dispatch name and payload (without `guild_id`), and the message it carries
 * when it carries one (whose content may be blanked). D:events/gateway-events.mdx §Message
 * Reaction Add (`burst` and `type` 0: ACS has no burst reactions), §Message Reaction Remove,
 * §Message Reaction Remove All, §Message Reaction Remove Emoji.
 */
function dispatchOf(
  event: ChannelMessageEvent,
): [string, Record<string, unknown>, Record<string, unknown> | undefined] {
  const channel_id = event.data.channel_id;
  switch (event.name) {
    case 'interactions.channel_message.created':
      return ['MESSAGE_CREATE', event.data.message, event.data.message];
    case 'interactions.channel_message.updated':
      return ['MESSAGE_UPDATE', event.data.message, event.data.message];
    case 'interactions.channel_message.deleted':
      return ['MESSAGE_DELETE', { id: event.data.message_id, channel_id }, undefined];
    case 'interactions.channel_message.bulk_deleted':
      return ['MESSAGE_DELETE_BULK', { ids: event.data.message_ids, channel_id }, undefined];
    case 'interactions.reaction.added': {
      const { user_id, message_id, emoji, message_author_id } = event.data;
      const d = { user_id, channel_id, message_id, emoji, burst: false, burst_colors: [], type: 0 };
      return [
        'MESSAGE_REACTION_ADD',
        message_author_id === null ? d : { ...d, message_author_id },
        undefined,
      ];
    }
    case 'interactions.reaction.removed': {
      const { user_id, message_id, emoji } = event.data;
      return [
        'MESSAGE_REACTION_REMOVE',
        { user_id, channel_id, message_id, emoji, burst: false, type: 0 },
        undefined,
      ];
    }
    case 'interactions.reaction.removed_all':
      return ['MESSAGE_REACTION_REMOVE_ALL', { channel_id, message_id: event.data.message_id }, undefined];
    case 'interactions.reaction.removed_emoji':
      return [
        'MESSAGE_REACTION_REMOVE_EMOJI',
        { channel_id, message_id: event.data.message_id, emoji: event.data.emoji },
        undefined,
      ];
    case 'interactions.typing.started':
      return [
        'TYPING_START',
        { channel_id, user_id: event.data.user_id, timestamp: event.data.timestamp },
        undefined,
      ];
  }
}

/** Whether the bot (its user id is its application's) wrote the message or is mentioned in it. */
function isOwnOrMentioning(message: Record<string, unknown>, botUserId: string): boolean {
  const author = message.author as { id?: unknown } | undefined;
  if (author?.id === botUserId) return true;
  const mentions = Array.isArray(message.mentions) ? (message.mentions as { id?: unknown }[]) : [];
  return mentions.some((user) => user.id === botUserId);
}

/**
 * A message as an app without MESSAGE_CONTENT receives it: `content` "", `embeds`,
 * `attachments` and `components` [], no `poll`; a reply's `referenced_message` and a
 * forward's snapshots likewise ([Inf]: Discord documents the fields, not nested messages).
 */
export function withoutContent(message: Record<string, unknown>): Record<string, unknown> {
  const blank: Record<string, unknown> = {
    ...message,
    content: '',
    embeds: [],
    attachments: [],
    components: [],
  };
  delete blank.poll;
  const referenced = message.referenced_message;
  if (referenced && typeof referenced === 'object') {
    blank.referenced_message = withoutContent(referenced as Record<string, unknown>);
  }
  // A forward's snapshot holds the source's content ([Inf]: blanked the same way).
  if (Array.isArray(message.message_snapshots)) {
    blank.message_snapshots = (message.message_snapshots as { message?: Record<string, unknown> }[]).map(
      (snapshot) =>
        snapshot.message ? { ...snapshot, message: withoutContent(snapshot.message) } : snapshot,
    );
  }
  return blank;
}

/** A message object as the gateway sends it: with `guild_id` in a guild. */
function withGuildId(message: Record<string, unknown>, guildId: string | null): Record<string, unknown> {
  return guildId === null ? message : { ...message, guild_id: guildId };
}
