import { decideInbound } from '../../src/domain/decide-inbound';
import { channelViewChanges } from '../../src/domain/channel-view-changes';
import {
  CHANNEL_OBFUSCATED,
  obfuscateChannel,
  obfuscateGuildCreate,
} from '../../src/domain/obfuscate-channel';
import {
  onGuildPermissionsChanged,
  planChannelEvent,
  type ChannelEvent,
} from '../../src/domain/plan-channel-event';

// Channel obfuscation as sessions render it: the hidden channel's shape, GUILD_CREATE's
// lists, the updates a change of visibility makes, the routes of channel events.

const GUILD = '100';
const text = {
  id: '1',
  type: 0,
  guild_id: GUILD,
  name: 'plans',
  parent_id: '9',
  position: 3,
  flags: 0,
  permission_overwrites: [{ id: '7', type: 1, allow: '1024', deny: '0' }],
  nsfw: true,
  topic: 'the heist',
  last_message_id: '55',
  rate_limit_per_user: 30,
};
const thread = {
  id: '2',
  type: 11,
  guild_id: GUILD,
  name: 'chatter',
  parent_id: '1',
  flags: 0,
  owner_id: '8',
  last_message_id: '56',
  rate_limit_per_user: 0,
  message_count: 12,
  member_count: 3,
  total_message_sent: 14,
  thread_metadata: { archived: false, auto_archive_duration: 4320, locked: false },
};

describe('obfuscateChannel', () => {
  it('hides the name and what the channel is about, keeps its place, flags it, denies VIEW_CHANNEL to @everyone', () => {
    expect(obfuscateChannel(text, GUILD)).toEqual({
      id: '1',
      type: 0,
      guild_id: GUILD,
      name: '___hidden___',
      parent_id: '9',
      position: 3,
      flags: CHANNEL_OBFUSCATED,
      permission_overwrites: [{ id: GUILD, type: 0, allow: '0', deny: '1024' }],
      nsfw: false,
      topic: null,
      last_message_id: null,
      rate_limit_per_user: 0,
    });
    expect(CHANNEL_OBFUSCATED).toBe(131072);
  });

  it('keeps the flags a channel had, and gives a thread no overwrites', () => {
    expect(obfuscateChannel({ ...text, flags: 2 }, GUILD).flags).toBe(2 | CHANNEL_OBFUSCATED);
    expect(obfuscateChannel(thread, GUILD)).toEqual({
      id: '2',
      type: 11,
      guild_id: GUILD,
      name: '___hidden___',
      parent_id: '1',
      flags: CHANNEL_OBFUSCATED,
      owner_id: '8',
      last_message_id: null,
      rate_limit_per_user: 0,
      message_count: 0,
      member_count: 0,
      total_message_sent: 0,
      thread_metadata: thread.thread_metadata,
    });
  });
});

describe('obfuscateGuildCreate', () => {
  it('obfuscates the channels and threads not visible, leaving the rest of GUILD_CREATE', () => {
    const open = { ...text, id: '3', name: 'open' };
    const d = { id: GUILD, name: 'g', channels: [text, open], threads: [thread] };
    const shown = obfuscateGuildCreate(d, new Set(['3']));
    expect(shown.name).toBe('g');
    const channels = shown.channels as Array<Record<string, unknown>>;
    const threads = shown.threads as Array<Record<string, unknown>>;
    expect(channels.map((c) => c.name)).toEqual(['___hidden___', 'open']);
    expect(threads[0]?.name).toBe('___hidden___');
    expect(channels[1]).toBe(open);
  });
});

describe('channelViewChanges', () => {
  it('updates each channel whose visibility flipped: in full when gained, obfuscated when lost', () => {
    const other = { ...text, id: '4', name: 'other' };
    const changes = channelViewChanges(GUILD, new Set(['4']), [text, other, thread], new Set(['1', '2']));
    expect(changes.map((c) => [c.t, c.d.id, c.d.name])).toEqual([
      ['CHANNEL_UPDATE', '1', 'plans'],
      ['CHANNEL_UPDATE', '4', '___hidden___'],
      ['THREAD_UPDATE', '2', 'chatter'],
    ]);
  });

  it('says nothing of unchanged channels nor of the one already dispatched', () => {
    expect(channelViewChanges(GUILD, new Set(['1']), [text], new Set(['1']))).toEqual([]);
    expect(channelViewChanges(GUILD, new Set(), [text], new Set(['1']), '1')).toEqual([]);
  });
});

describe('channel event routes and Identify capabilities', () => {
  it('routes a channel event to the guild bots, and a permission change as a recheck', () => {
    const event: ChannelEvent = {
      id: 'e',
      name: 'permissions.channel.updated',
      occurredAt: '2026-01-01T00:00:00.000Z',
      data: { guild_id: GUILD, channel: text },
    };
    expect(planChannelEvent(event)).toEqual([
      { to: 'guild-bots', message: { kind: 'channel', t: 'CHANNEL_UPDATE', guildId: GUILD, channel: text } },
    ]);
    const threadDeleted: ChannelEvent = {
      ...event,
      name: 'permissions.channel.deleted',
      data: { guild_id: GUILD, channel: thread },
    };
    expect(planChannelEvent(threadDeleted)).toEqual([
      {
        to: 'guild-bots',
        message: {
          kind: 'channel',
          t: 'THREAD_DELETE',
          guildId: GUILD,
          channel: { id: '2', guild_id: GUILD, parent_id: '1', type: 11 },
        },
      },
    ]);
    expect(onGuildPermissionsChanged(GUILD)).toEqual({
      to: 'guild-bots',
      message: { kind: 'recheck', guildId: GUILD },
    });
  });

  it('reads capabilities from Identify, 0 when absent or not a bit set', () => {
    const identify = (capabilities: unknown) =>
      decideInbound('hello', JSON.stringify({ op: 2, d: { token: 'Bot t', intents: 1, capabilities } }));
    expect(identify(1 << 15)).toMatchObject({ identify: { capabilities: 32768 } });
    expect(identify('all')).toMatchObject({ identify: { capabilities: 0 } });
    expect(identify(-1)).toMatchObject({ identify: { capabilities: 0 } });
    expect(identify(1.5)).toMatchObject({ identify: { capabilities: 0 } });
  });
});
