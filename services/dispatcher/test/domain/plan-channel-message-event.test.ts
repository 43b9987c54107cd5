import {
  CHANNEL_MESSAGE_EVENTS,
  isChannelMessageEvent,
  planChannelMessageEvent,
  withoutContent,
  type ChannelMessageEvent,
} from '../../src/domain/plan-channel-message-event';
import { DISPATCHED_EVENTS } from '../../src/domain/plan-event';

const BOT = '1800000000000000001';
const OTHER_BOT = '1800000000000000009';
const USER = '1800000000000000002';
const GUILD = '1800000000000000004';
const CHANNEL = '1800000000000000005';
const message = {
  id: '1800000000000000020',
  channel_id: CHANNEL,
  content: 'secret',
  embeds: [{ title: 't' }],
  attachments: [{ id: '1' }],
  components: [{ type: 1 }],
  poll: { question: { text: 'q' } },
  author: { id: USER },
  mentions: [{ id: OTHER_BOT }],
};

function event<E extends ChannelMessageEvent>(name: E['name'], data: E['data']): ChannelMessageEvent {
  return { id: 'e1', name, occurredAt: '2026-01-01T00:00:00.000Z', data } as ChannelMessageEvent;
}

describe('planChannelMessageEvent', () => {
  it('is dispatched for every channel message event of the catalog', () => {
    expect(DISPATCHED_EVENTS).toEqual(expect.arrayContaining([...CHANNEL_MESSAGE_EVENTS]));
    expect(
      isChannelMessageEvent(
        event('interactions.channel_message.deleted', {
          channel_id: CHANNEL,
          guild_id: GUILD,
          recipient_ids: [],
          message_id: '1',
        }),
      ),
    ).toBe(true);
  });

  it('sends a guild message to its viewers and to each guild bot, blanked for those it neither mentions nor is by', () => {
    const routes = planChannelMessageEvent(
      event('interactions.channel_message.created', {
        channel_id: CHANNEL,
        guild_id: GUILD,
        recipient_ids: [],
        message,
      }),
      [BOT, OTHER_BOT, BOT],
    );
    const d = { ...message, guild_id: GUILD };
    expect(routes).toEqual([
      { to: 'channel-viewers', message: { t: 'MESSAGE_CREATE', d, guildId: GUILD, channelId: CHANNEL } },
      {
        to: 'bot',
        applicationId: BOT,
        message: {
          kind: 'dispatch',
          t: 'MESSAGE_CREATE',
          d,
          guildId: GUILD,
          intent: 1 << 9,
          channelId: CHANNEL,
          withoutContent: {
            ...d,
            content: '',
            embeds: [],
            attachments: [],
            components: [],
            poll: undefined,
          },
        },
      },
      // Mentioned: its content whatever its intents.
      {
        to: 'bot',
        applicationId: OTHER_BOT,
        message: {
          kind: 'dispatch',
          t: 'MESSAGE_CREATE',
          d,
          guildId: GUILD,
          intent: 1 << 9,
          channelId: CHANNEL,
        },
      },
    ]);
    const blank = (routes[1] as { message: { withoutContent: Record<string, unknown> } }).message
      .withoutContent;
    expect(blank).not.toHaveProperty('poll');
  });

  it("keeps a bot's own message whole for it, and blanks a reply's target too", () => {
    const own = {
      ...message,
      author: { id: BOT },
      mentions: [],
      referenced_message: { content: 'q', embeds: [] },
    };
    const [, toAuthor] = planChannelMessageEvent(
      event('interactions.channel_message.updated', {
        channel_id: CHANNEL,
        guild_id: GUILD,
        recipient_ids: [],
        message: own,
      }),
      [BOT],
    );
    expect(toAuthor).toMatchObject({ message: { t: 'MESSAGE_UPDATE' } });
    expect(toAuthor).not.toHaveProperty('message.withoutContent');
    expect(withoutContent(own).referenced_message).toEqual({
      content: '',
      embeds: [],
      attachments: [],
      components: [],
    });
  });

  it('sends MESSAGE_DELETE_BULK to the viewers and the guild bots, with GUILD_MESSAGES', () => {
    const routes = planChannelMessageEvent(
      event('interactions.channel_message.bulk_deleted', {
        channel_id: CHANNEL,
        guild_id: GUILD,
        recipient_ids: [],
        message_ids: ['1', '2'],
      }),
      [BOT],
    );
    const d = { ids: ['1', '2'], channel_id: CHANNEL, guild_id: GUILD };
    expect(routes).toEqual([
      { to: 'channel-viewers', message: { t: 'MESSAGE_DELETE_BULK', d, guildId: GUILD, channelId: CHANNEL } },
      {
        to: 'bot',
        applicationId: BOT,
        message: {
          kind: 'dispatch',
          t: 'MESSAGE_DELETE_BULK',
          d,
          guildId: GUILD,
          intent: 1 << 9,
          channelId: CHANNEL,
        },
      },
    ]);
  });

  it('sends a DM to each recipient as a user and as a bot, with DIRECT_MESSAGES, whole', () => {
    const routes = planChannelMessageEvent(
      event('interactions.channel_message.deleted', {
        channel_id: CHANNEL,
        guild_id: null,
        recipient_ids: [USER, BOT],
        message_id: message.id,
      }),
      [],
    );
    const d = { id: message.id, channel_id: CHANNEL };
    expect(routes).toEqual([
      { to: 'user', userId: USER, message: { t: 'MESSAGE_DELETE', d, sessionId: null } },
      {
        to: 'bot',
        applicationId: USER,
        message: { kind: 'dispatch', t: 'MESSAGE_DELETE', d, guildId: null, intent: 1 << 12 },
      },
      { to: 'user', userId: BOT, message: { t: 'MESSAGE_DELETE', d, sessionId: null } },
      {
        to: 'bot',
        applicationId: BOT,
        message: { kind: 'dispatch', t: 'MESSAGE_DELETE', d, guildId: null, intent: 1 << 12 },
      },
    ]);
  });

  it('sends TYPING_START to the viewers and the guild bots with GUILD_MESSAGE_TYPING, and in a DM with DIRECT_MESSAGE_TYPING', () => {
    const data = { user_id: USER, timestamp: 1_800_000_000 };
    const guild = planChannelMessageEvent(
      event('interactions.typing.started', {
        channel_id: CHANNEL,
        guild_id: GUILD,
        recipient_ids: [],
        ...data,
      }),
      [BOT],
    );
    const d = { channel_id: CHANNEL, ...data, guild_id: GUILD };
    expect(guild).toEqual([
      { to: 'channel-viewers', message: { t: 'TYPING_START', d, guildId: GUILD, channelId: CHANNEL } },
      {
        to: 'bot',
        applicationId: BOT,
        message: {
          kind: 'dispatch',
          t: 'TYPING_START',
          d,
          guildId: GUILD,
          intent: 1 << 11,
          channelId: CHANNEL,
        },
      },
    ]);
    const dm = planChannelMessageEvent(
      event('interactions.typing.started', {
        channel_id: CHANNEL,
        guild_id: null,
        recipient_ids: [BOT],
        ...data,
      }),
      [],
    );
    const dmD = { channel_id: CHANNEL, ...data };
    expect(dm).toEqual([
      { to: 'user', userId: BOT, message: { t: 'TYPING_START', d: dmD, sessionId: null } },
      {
        to: 'bot',
        applicationId: BOT,
        message: { kind: 'dispatch', t: 'TYPING_START', d: dmD, guildId: null, intent: 1 << 14 },
      },
    ]);
  });
});
