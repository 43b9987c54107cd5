import { channelInfoPayload } from '../../src/domain/channel-info';
import { decideInbound } from '../../src/domain/decide-inbound';
import { planVoiceEvent, type VoiceEvent } from '../../src/domain/plan-voice-event';
import {
  hidesCustomStatus,
  MAX_ACTIVITIES,
  presenceUpdatePayload,
  readPresence,
  type StoredPresence,
} from '../../src/domain/presence';

const NOW = 1_700_000_000_000;
const GUILD = '100000000000000001';
const CHANNEL = '100000000000000002';

describe('readPresence', () => {
  it('keeps what a user or a bot may set, and stamps created_at', () => {
    const d = {
      since: 5,
      status: 'dnd',
      afk: true,
      activities: [
        { name: 'Chess', type: 0, details: 'Opening', secrets: { join: 'x' } },
        { type: 4, state: 'Busy', emoji: { name: '🔥', id: '123', animated: false } },
      ],
    };
    expect(readPresence(d, 'user', NOW)).toEqual({
      since: 5,
      status: 'dnd',
      afk: true,
      activities: [
        { name: 'Chess', type: 0, details: 'Opening', created_at: NOW },
        {
          name: 'Custom Status',
          type: 4,
          state: 'Busy',
          emoji: { name: '🔥', id: '123', animated: false },
          created_at: NOW,
        },
      ],
    });
    // A bot sets only name, state, type and url (D:events/gateway-events.mdx §Activity Object).
    expect(readPresence(d, 'bot', NOW)?.activities).toEqual([
      { name: 'Chess', type: 0, created_at: NOW },
      { name: 'Custom Status', type: 4, state: 'Busy', created_at: NOW },
    ]);
    expect(readPresence({ status: 'online' }, 'user', NOW)).toEqual({
      since: null,
      status: 'online',
      afk: false,
      activities: [],
    });
  });

  it('refuses what is malformed', () => {
    const base = { since: null, status: 'online', afk: false, activities: [] as unknown[] };
    const bad: unknown[] = [
      null,
      [],
      'online',
      { ...base, status: 'away' },
      { ...base, status: 1 },
      { ...base, since: -1 },
      { ...base, since: 1.5 },
      { ...base, afk: 'yes' },
      { ...base, activities: 'x' },
      { ...base, activities: [null] },
      { ...base, activities: [{ name: 'x', type: 6 }] },
      { ...base, activities: [{ name: 'x', type: '0' }] },
      { ...base, activities: [{ type: 0 }] },
      { ...base, activities: [{ name: '', type: 0 }] },
      { ...base, activities: [{ name: 'x'.repeat(129), type: 0 }] },
      { ...base, activities: [{ name: 'a\u0000', type: 0 }] },
      { ...base, activities: [{ name: 'x', type: 0, state: 7 }] },
      { ...base, activities: [{ name: 'x', type: 4, emoji: { name: 'e', id: '18446744073709551616x' } }] },
      { ...base, activities: Array.from({ length: MAX_ACTIVITIES + 1 }, () => ({ name: 'x', type: 0 })) },
    ];
    for (const d of bad) expect({ d, read: readPresence(d, 'user', NOW) }).toEqual({ d, read: null });
  });
});

describe('PRESENCE_UPDATE', () => {
  const stored = (privacy: StoredPresence['profilePrivacy'], status = 'online' as const): StoredPresence => ({
    userId: '7',
    setter: 'user',
    profilePrivacy: privacy,
    presence: {
      since: null,
      status,
      afk: false,
      activities: [
        { name: 'Chess', type: 0, created_at: NOW },
        { name: 'Custom Status', type: 4, state: 'Hi', created_at: NOW },
      ],
    },
  });

  it('hides a custom status as the profile privacy asks', () => {
    expect(hidesCustomStatus('everyone', 10_000)).toBe(false);
    expect(hidesCustomStatus('friends', 2)).toBe(true);
    expect(hidesCustomStatus('friends_and_small_servers', 200)).toBe(false);
    expect(hidesCustomStatus('friends_and_small_servers', 201)).toBe(true);
    const types = (privacy: StoredPresence['profilePrivacy'], members: number) =>
      (presenceUpdatePayload(stored(privacy), GUILD, members).activities as { type: number }[]).map(
        (a) => a.type,
      );
    expect(types('everyone', 500)).toEqual([0, 4]);
    expect(types('friends', 5)).toEqual([0]);
    expect(types('friends_and_small_servers', 200)).toEqual([0, 4]);
    expect(types('friends_and_small_servers', 201)).toEqual([0]);
  });

  it('shows an invisible user as offline, without activities or platforms', () => {
    expect(
      presenceUpdatePayload(stored('everyone', 'invisible' as never), GUILD, 3, { id: '7', username: 'u' }),
    ).toEqual({
      user: { id: '7', username: 'u' },
      guild_id: GUILD,
      status: 'offline',
      activities: [],
      client_status: {},
    });
    expect(presenceUpdatePayload(stored('everyone'), GUILD, 3)).toMatchObject({
      user: { id: '7' },
      status: 'online',
      client_status: { desktop: 'online' },
    });
    expect(presenceUpdatePayload({ ...stored('everyone'), setter: 'bot' }, GUILD, 3)).toMatchObject({
      client_status: { web: 'online' },
    });
  });
});

describe('op 4 and op 43', () => {
  const op = (n: number, d: unknown) => decideInbound('ready', JSON.stringify({ op: n, d }));

  it('reads a voice state update', () => {
    expect(op(4, { guild_id: GUILD, channel_id: CHANNEL, self_mute: true, self_deaf: false })).toEqual({
      kind: 'voice-state',
      voice: { guildId: GUILD, channelId: CHANNEL, selfMute: true, selfDeaf: false },
    });
    expect(op(4, { guild_id: GUILD, channel_id: null, self_mute: false, self_deaf: false })).toMatchObject({
      voice: { channelId: null },
    });
    for (const d of [
      null,
      { guild_id: 1, channel_id: null, self_mute: false, self_deaf: false },
      { guild_id: '9223372036854775808', channel_id: null, self_mute: false, self_deaf: false },
      { guild_id: GUILD, channel_id: 'x', self_mute: false, self_deaf: false },
      { guild_id: GUILD, channel_id: null, self_mute: 0, self_deaf: false },
      { guild_id: GUILD, channel_id: null, self_mute: false },
    ]) {
      expect({ d, decision: op(4, d) }).toMatchObject({
        d,
        decision: { kind: 'close', close: { code: 4002 } },
      });
    }
    expect(decideInbound('hello', JSON.stringify({ op: 4, d: {} }))).toMatchObject({ close: { code: 4003 } });
  });

  it('reads a channel info request and answers the fields asked', () => {
    expect(op(43, { guild_id: GUILD, fields: ['status', 'status', 'later_field'] })).toEqual({
      kind: 'channel-info',
      request: { guildId: GUILD, fields: ['status'] },
    });
    for (const d of [
      null,
      { guild_id: GUILD },
      { guild_id: GUILD, fields: 'status' },
      { guild_id: GUILD, fields: [1] },
    ]) {
      expect({ d, decision: op(43, d) }).toMatchObject({ d, decision: { close: { code: 4002 } } });
    }
    const channels = [{ id: CHANNEL, status: 'Live', voice_start_time: 1700000000 }];
    expect(channelInfoPayload({ guildId: GUILD, fields: ['voice_start_time'] }, channels)).toEqual({
      guild_id: GUILD,
      channels: [{ id: CHANNEL, voice_start_time: 1700000000 }],
    });
    expect(channelInfoPayload({ guildId: GUILD, fields: [] }, channels)).toEqual({
      guild_id: GUILD,
      channels: [{ id: CHANNEL }],
    });
  });

  it("routes voice events to the guild's bots with their intents", () => {
    const event = (name: VoiceEvent['name'], data: unknown) => ({ name, data }) as unknown as VoiceEvent;
    const status = event('permissions.voice_channel.status_updated', {
      id: CHANNEL,
      guild_id: GUILD,
      status: 'x',
    });
    expect(planVoiceEvent(status, ['1', '2'])).toEqual(
      ['1', '2'].map((applicationId) => ({
        to: 'bot',
        applicationId,
        message: {
          kind: 'dispatch',
          t: 'VOICE_CHANNEL_STATUS_UPDATE',
          d: status.data,
          guildId: GUILD,
          intent: 1,
        },
      })),
    );
    expect(
      planVoiceEvent(event('permissions.voice_state.updated', { guild_id: GUILD }), ['1'])[0],
    ).toMatchObject({ message: { t: 'VOICE_STATE_UPDATE', intent: 1 << 7 } });
    expect(
      planVoiceEvent(event('permissions.voice_channel.start_time_updated', { guild_id: GUILD }), ['1'])[0],
    ).toMatchObject({ message: { t: 'VOICE_CHANNEL_START_TIME_UPDATE', intent: 1 } });
  });
});
