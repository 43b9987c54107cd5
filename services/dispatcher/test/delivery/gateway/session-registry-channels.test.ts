import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { createLogger } from '@acs/service-kit';
import type { GuildSnapshot } from '../../../src/clients/permissions-client';
import { DispatchBus } from '../../../src/delivery/gateway/dispatch-bus';
import {
  SessionRegistry,
  type Session,
  type SessionSink,
} from '../../../src/delivery/gateway/session-registry';
import type { GatewayPayload } from '../../../src/domain/gateway-payload';
import type { BotSessionFacts } from '../../../src/domain/gateway-route';
import { onGuildPermissionsChanged } from '../../../src/domain/plan-channel-event';

// A bot session's guild channels over real NATS: GUILD_CREATE obfuscated for a session with
// the capability, channel events and `onGuildPermissionsChanged` rechecks, and the
// sessions that get none. Permissions (the network edge) is a stub answering what the bot
// may view.

const GUILD = '100';
const BOT = '4000';
const CAPABLE: BotSessionFacts = { shard: null, intents: 1, capabilities: 1 << 15 };

let nats: NatsConnection;
let bus: DispatchBus;
let registry: SessionRegistry;
let view: GuildSnapshot | undefined;
const text = (id: string, name: string) => ({
  id,
  type: 0,
  guild_id: GUILD,
  name,
  position: 0,
  flags: 0,
  permission_overwrites: [],
});
const channels = [text('1', 'open'), text('2', 'secret')];

class Sink implements SessionSink {
  readonly payloads: GatewayPayload[] = [];
  send(payload: GatewayPayload): void {
    this.payloads.push(payload);
  }
  end(): void {}
  /** The dispatches after `from`, as [t, id, name]. */
  seen(from = 0): Array<[string, unknown, unknown]> {
    return this.payloads.slice(from).map((p) => {
      const d = p.d as { id?: unknown; name?: unknown };
      return [String(p.t), d.id, d.name];
    });
  }
}

beforeAll(async () => {
  nats = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  bus = new DispatchBus(nats, `test_${randomBytes(4).toString('hex')}`);
  registry = new SessionRegistry(bus, {
    resumeWindowMs: 60_000,
    replayBufferSize: 100,
    canViewChannel: async () => false,
    guildView: async () => view,
    logger: createLogger('dispatcher-test', 'silent'),
  });
});

afterAll(async () => {
  registry?.closeAll();
  await nats?.close();
});

/** Sends on the bus and waits until the sinks have had time to receive (and permissions to answer). */
async function publish(route: Parameters<DispatchBus['send']>[0]): Promise<void> {
  bus.send(route);
  await bus.flush();
  await new Promise((r) => setTimeout(r, 150));
}

function open(facts: BotSessionFacts, visible?: string[]): { session: Session; sink: Sink } {
  const sink = new Sink();
  const session = registry.createBotSession(BOT, facts, sink);
  registry.dispatchGuildCreate(session, { id: GUILD, name: 'g', channels, threads: [] }, visible);
  return { session, sink };
}

it('follows what the bot may view: obfuscated at GUILD_CREATE, full after a recheck finds it viewable', async () => {
  view = { guild: {}, channels, visibleChannelIds: ['1'] };
  const capable = open(CAPABLE, ['1']);
  const plain = open({ shard: null, intents: 1 }, ['1']);
  const noGuilds = open({ shard: null, intents: 512, capabilities: 1 << 15 }, ['1']);
  const guildCreate = capable.sink.payloads[0]?.d as { channels: Array<{ name: string }> };
  expect(guildCreate.channels.map((c) => c.name)).toEqual(['open', '___hidden___']);
  expect((plain.sink.payloads[0]?.d as typeof guildCreate).channels.map((c) => c.name)).toEqual([
    'open',
    'secret',
  ]);

  view = { guild: {}, channels, visibleChannelIds: ['1', '2'] };
  await publish(onGuildPermissionsChanged(GUILD));
  expect(capable.sink.seen(1)).toEqual([['CHANNEL_UPDATE', '2', 'secret']]);
  expect(plain.sink.seen(1)).toEqual([]);
  expect(noGuilds.sink.seen(1)).toEqual([]);

  // Nothing changed: a second recheck says nothing.
  await publish(onGuildPermissionsChanged(GUILD));
  expect(capable.sink.seen(2)).toEqual([]);

  // A channel event: the changed channel as the bot may view it, then the other flips.
  view = { guild: {}, channels, visibleChannelIds: ['2'] };
  const renamed = { ...text('2', 'secret-2') };
  await publish({
    to: 'guild-bots',
    message: { kind: 'channel', t: 'CHANNEL_UPDATE', guildId: GUILD, channel: renamed },
  });
  expect(capable.sink.seen(2)).toEqual([
    ['CHANNEL_UPDATE', '2', 'secret-2'],
    ['CHANNEL_UPDATE', '1', '___hidden___'],
  ]);
  expect(plain.sink.seen(1)).toEqual([['CHANNEL_UPDATE', '2', 'secret-2']]);
  expect(noGuilds.sink.seen(1)).toEqual([]);
  for (const s of [capable, plain, noGuilds]) registry.destroy(s.session);
});

it('stops following a guild after GUILD_DELETE, and other guilds are not its business', async () => {
  view = { guild: {}, channels, visibleChannelIds: ['1'] };
  const { session, sink } = open(CAPABLE, ['1']);
  await publish({ to: 'guild-bots', message: { kind: 'recheck', guildId: '999' } });
  await publish({
    to: 'bot',
    applicationId: BOT,
    message: { kind: 'dispatch', t: 'GUILD_DELETE', d: { id: GUILD }, guildId: GUILD },
  });
  expect(sink.seen(1)).toEqual([['GUILD_DELETE', GUILD, undefined]]);
  view = { guild: {}, channels, visibleChannelIds: ['1', '2'] };
  await publish({
    to: 'guild-bots',
    message: { kind: 'channel', t: 'CHANNEL_CREATE', guildId: GUILD, channel: text('3', 'new') },
  });
  expect(sink.seen(2)).toEqual([]);
  expect(session.guilds.size).toBe(0);
  registry.destroy(session);
});
