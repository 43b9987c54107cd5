import { createLogger } from '@acs/service-kit';
import type { DispatchBus } from '../../../src/delivery/gateway/dispatch-bus';
import { SessionRegistry, type SessionSink } from '../../../src/delivery/gateway/session-registry';
import type { GatewayPayload } from '../../../src/domain/gateway-payload';
import type { BotMessage, BotSessionFacts } from '../../../src/domain/gateway-route';
import { guildCreatePayload, guildCrowd, type GuildCrowd } from '../../../src/domain/guild-create';

// The GUILD_CREATE of a guild the bot joins, shared by its sessions over the bus: a session
// with GUILD_PRESENCES gets the guild's members and presences (by its large_threshold), as
// after Identify, and its later dispatches wait for it; the others get it as published.

const GUILD = '100';
const BOT = '4000';
const GUILDS = 1 << 0;
const GUILD_PRESENCES = 1 << 8;
const botUser = { id: BOT, username: 'bot', bot: true };
const member = (id: string) => ({ user: { id, username: `u${id}` }, nick: null, roles: [] as string[] });
const members = [member(BOT), member('1'), member('2')];
const presences = [{ user: { id: '1' }, guild_id: GUILD, status: 'online', activities: [] }];

class Sink implements SessionSink {
  readonly payloads: GatewayPayload[] = [];
  send(payload: GatewayPayload): void {
    this.payloads.push(payload);
  }
  end(): void {}
}

/** A bus that hands the application's messages to its subscribers at once. */
function fakeBus(): { bus: DispatchBus; publish: (message: BotMessage) => void } {
  const handlers: Array<(message: BotMessage) => void> = [];
  const bus = {
    subscribe: (_app: string, handler: (message: BotMessage) => void) => {
      handlers.push(handler);
      return () => undefined;
    },
    subscribeGuildBots: () => () => undefined,
  } as Partial<DispatchBus> as DispatchBus;
  return { bus, publish: (message) => handlers.forEach((handler) => handler(message)) };
}

function setUp(crowdOf: (guildId: string, botUserId: string, threshold: number) => Promise<GuildCrowd>) {
  const { bus, publish } = fakeBus();
  const registry = new SessionRegistry(bus, {
    resumeWindowMs: 60_000,
    replayBufferSize: 100,
    canViewChannel: async () => false,
    guildView: async () => undefined,
    crowdOf,
    logger: createLogger('dispatcher-test', 'silent'),
  });
  const open = (facts: BotSessionFacts) => {
    const sink = new Sink();
    registry.createBotSession(BOT, facts, sink);
    return sink;
  };
  return { registry, publish, open };
}

const joined = (memberCount: number): BotMessage => ({
  kind: 'dispatch',
  t: 'GUILD_CREATE',
  d: guildCreatePayload({
    guild: { id: GUILD, roles: [] },
    channels: [],
    botUser,
    joinedAt: '2026-01-01T00:00:00.000Z',
    memberCount,
  }),
  guildId: GUILD,
});
const memberAdd: BotMessage = {
  kind: 'dispatch',
  t: 'GUILD_MEMBER_ADD',
  d: { guild_id: GUILD },
  guildId: GUILD,
};
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SessionRegistry: the GUILD_CREATE of a guild joined', () => {
  it('lists the members and presences for a session with GUILD_PRESENCES, in turn; the bot alone for others', async () => {
    let answer: (crowd: GuildCrowd) => void = () => undefined;
    const asked: Array<[string, string, number]> = [];
    const { registry, publish, open } = setUp((guildId, botUserId, threshold) => {
      asked.push([guildId, botUserId, threshold]);
      return new Promise((resolve) => (answer = resolve));
    });
    const plain = open({ shard: null, intents: GUILDS });
    const crowded = open({ shard: null, intents: GUILDS | GUILD_PRESENCES, largeThreshold: 2 });
    publish(joined(3));
    publish(memberAdd);
    expect(plain.payloads.map((p) => p.t)).toEqual(['GUILD_CREATE', 'GUILD_MEMBER_ADD']);
    expect(plain.payloads[0]!.d).toMatchObject({
      member_count: 3,
      members: [{ user: botUser }],
      presences: [],
    });
    // The members are being listed: nothing yet, the member add waits behind.
    await settle();
    expect(crowded.payloads).toEqual([]);
    expect(asked).toEqual([[GUILD, BOT, 2]]);
    answer(guildCrowd(members, presences, BOT, 2));
    await settle();
    expect(crowded.payloads.map((p) => [p.t, p.s])).toEqual([
      ['GUILD_CREATE', 1],
      ['GUILD_MEMBER_ADD', 2],
    ]);
    const d = crowded.payloads[0]!.d as { members: Array<{ user: { id: string } }> };
    expect(d).toMatchObject({ large: true, member_count: 3, presences });
    // Large (3 > 2): the bot, then only the member online.
    expect(d.members.map((m) => m.user.id)).toEqual([BOT, '1']);
    // Nothing queued any more: the next dispatch leaves at once.
    publish(memberAdd);
    expect(crowded.payloads).toHaveLength(3);
    registry.closeAll();
  });

  it('lists the bot alone when the lookup fails, and asks nothing for a guild of over 75,000 members', async () => {
    const asked: string[] = [];
    const { registry, publish, open } = setUp(async (guildId) => {
      asked.push(guildId);
      throw new Error('permissions unreachable');
    });
    const sink = open({ shard: null, intents: GUILDS | GUILD_PRESENCES });
    publish(joined(3));
    await settle();
    expect(asked).toEqual([GUILD]);
    expect(sink.payloads.map((p) => p.t)).toEqual(['GUILD_CREATE']);
    expect(sink.payloads[0]!.d).toMatchObject({ members: [{ user: botUser }], presences: [], large: false });
    publish(joined(75_001));
    expect(asked).toEqual([GUILD]);
    expect(sink.payloads.map((p) => p.t)).toEqual(['GUILD_CREATE', 'GUILD_CREATE']);
    registry.closeAll();
  });
});
