import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { findTestServers, TcpProxy } from '@acs/testing';
import {
  startEventConsumer,
  type EventConsumerOptions,
  type EventName,
  type EventPayload,
  type ReceivedEvent,
  type RunningConsumer,
} from '../src';

const FAST = { initialMs: 50, maxMs: 400, factor: 2, jitter: 0 };
const DELETED: EventPayload<'command-registry.command.deleted'> = {
  application_id: '4000',
  guild_id: null,
  command_id: '77',
  type: 1,
  name: 'kick',
  version: '78',
};
const NAMES = ['command-registry.command.deleted', 'command-registry.command.renamed'] as const;
type Name = (typeof NAMES)[number];

let nats: NatsConnection;
let natsUrl: string;
const running: RunningConsumer[] = [];
const streams: string[] = [];

beforeAll(async () => {
  natsUrl = (await findTestServers()).natsUrl;
  nats = await connect({ servers: natsUrl });
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
});

afterAll(async () => {
  const jsm = await nats.jetstreamManager();
  for (const stream of streams) await jsm.streams.delete(stream).catch(() => undefined);
  await nats.close();
});

/** A stream and subject prefix of this test alone. */
function freshEvents() {
  const suffix = randomBytes(4).toString('hex');
  const events = { stream: `CONSUMER_T${suffix}`, subjectPrefix: `ct${suffix}` };
  streams.push(events.stream);
  return events;
}

/** A logger that keeps what it is told. */
function recordingLogger() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
  const at = (level: string) => (obj: object, msg?: string) =>
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Publishes an envelope (`id` and message id chosen, or fresh) on `<prefix>.<name>`. */
async function publish(
  events: { subjectPrefix: string },
  name: string,
  data: unknown,
  options: { id?: string; type?: string } = {},
): Promise<string> {
  const id = options.id ?? randomUUID();
  const type = options.type ?? name.slice(name.indexOf('.') + 1);
  await nats
    .jetstream()
    .publish(
      `${events.subjectPrefix}.${name}`,
      JSON.stringify({ id, type, occurred_at: new Date().toISOString(), data }),
      { msgID: randomUUID() },
    );
  return id;
}

function start<N extends EventName>(options: EventConsumerOptions<N>): RunningConsumer {
  const consumer = startEventConsumer(options);
  running.push(consumer);
  return consumer;
}

/** Starts a consumer and waits until it consumes. */
async function started<N extends EventName>(options: EventConsumerOptions<N>): Promise<RunningConsumer> {
  const consumer = start(options);
  await consumer.ready;
  return consumer;
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until the consumer has settled every message: none pending, none awaiting an ack. */
async function settled(events: { stream: string }, consumer: string): Promise<void> {
  const jsm = await nats.jetstreamManager();
  for (let i = 0; i < 400; i++) {
    const info = await jsm.consumers.info(events.stream, consumer).catch(() => null);
    if (info && info.num_pending === 0 && info.num_ack_pending === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the consumer did not settle');
}

describe('startEventConsumer', () => {
  it('hands over its events, checked and typed, and acknowledges them; others are acknowledged unread', async () => {
    const events = freshEvents();
    const handled: ReceivedEvent<Name>[] = [];
    const consumer = start({
      nats: { servers: natsUrl, name: 'test' },
      events,
      consumer: { name: 'handles' },
      names: ['command-registry.command.deleted'],
      logger: recordingLogger(),
      backoff: FAST,
      handle: async (event) => {
        handled.push(event);
      },
    });
    await consumer.ready;
    const id = await publish(events, 'command-registry.command.deleted', DELETED);
    await publish(events, 'command-registry.command.renamed', { ...DELETED, previous_name: 'ban' });
    await until('the event', () => handled.length === 1);
    expect(handled[0]).toMatchObject({
      name: 'command-registry.command.deleted',
      id,
      data: DELETED,
      subject: `${events.subjectPrefix}.command-registry.command.deleted`,
    });
    // Typed by the catalog: the data of a deleted command has a version.
    const version: string = (handled[0] as ReceivedEvent<'command-registry.command.deleted'>).data.version;
    expect(version).toBe('78');
    await settled(events, 'handles');
    expect(consumer.isConnected()).toBe(true);
  });

  it('acknowledges events outside its names that its filter lets through', async () => {
    const events = freshEvents();
    const handled: string[] = [];
    await started({
      nats,
      events,
      consumer: { name: 'wide' },
      // Two services: the filter is every subject of the prefix.
      names: ['oauth.application.bot_token_reset', 'command-registry.command.deleted'],
      logger: recordingLogger(),
      handle: async (event) => {
        handled.push(event.name);
      },
    });
    await publish(events, 'permissions.application_command_permissions.updated', { anything: true });
    await publish(events, 'oauth.application.bot_token_reset', { application_id: '1' });
    await until('the event', () => handled.length === 1);
    await settled(events, 'wide');
    expect(handled).toEqual(['oauth.application.bot_token_reset']);
  });

  it('terminates an invalid event, logging why, and never hands it over or sees it again', async () => {
    const events = freshEvents();
    const handled: string[] = [];
    const logger = recordingLogger();
    await started({
      nats,
      events,
      consumer: { name: 'strict', ackWaitMs: 500 },
      names: NAMES,
      logger,
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    await publish(events, 'command-registry.command.deleted', { ...DELETED, command_id: 'x' }, { id: 'bad' });
    const good = await publish(events, 'command-registry.command.deleted', DELETED);
    await until('the valid event', () => handled.length === 1);
    await settled(events, 'strict');
    // Longer than the ack wait: a message left unacknowledged would be back by now.
    await new Promise((r) => setTimeout(r, 800));
    expect(handled).toEqual([good]);
    const warning = logger.lines.find((l) => l.msg === 'invalid event; dropped');
    expect(warning?.obj.reason).toBe('data: command_id: not a snowflake');
    const info = await (await nats.jetstreamManager()).consumers.info(events.stream, 'strict');
    expect(info.num_redelivered).toBe(0);
  });

  it('redelivers an event whose handler failed after the retry delay, then acknowledges it', async () => {
    const events = freshEvents();
    const attempts: number[] = [];
    const logger = recordingLogger();
    await started({
      nats,
      events,
      consumer: { name: 'retries' },
      names: NAMES,
      logger,
      retryDelayMs: 300,
      handle: async () => {
        attempts.push(Date.now());
        if (attempts.length === 1) throw new Error('database away');
      },
    });
    const id = await publish(events, 'command-registry.command.deleted', DELETED);
    await until('the second attempt', () => attempts.length === 2);
    await settled(events, 'retries');
    expect((attempts[1] as number) - (attempts[0] as number)).toBeGreaterThanOrEqual(250);
    expect(logger.lines.find((l) => l.msg === 'event not handled; retrying')?.obj).toMatchObject({
      eventId: id,
      retryInMs: 300,
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(attempts).toHaveLength(2);
  });

  it('redelivers a whole batch whose handler threw, and only the events it names otherwise', async () => {
    const events = freshEvents();
    const calls: string[][] = [];
    let twoFailedInCall = 0;
    await started({
      nats,
      events,
      consumer: { name: 'batches' },
      names: NAMES,
      logger: recordingLogger(),
      retryDelayMs: 100,
      handleBatch: async (batch) => {
        calls.push(batch.map((e) => e.data.command_id));
        if (calls.length === 1) throw new Error('the whole batch failed');
        // Later, event 2 fails on its own, once.
        const two = batch.find((e) => e.data.command_id === '2');
        if (two && twoFailedInCall === 0) {
          twoFailedInCall = calls.length;
          return { retry: [{ event: two, error: new Error('not this one') }] };
        }
      },
    });
    await publish(events, 'command-registry.command.deleted', { ...DELETED, command_id: '1' });
    await publish(events, 'command-registry.command.deleted', { ...DELETED, command_id: '2' });
    await until(
      'event 2 again',
      () => twoFailedInCall > 0 && calls.slice(twoFailedInCall).flat().includes('2'),
    );
    await settled(events, 'batches');
    const [thrown = [], ...later] = calls;
    for (const id of thrown) expect(later.flat()).toContain(id);
    expect(later.flat().filter((id) => id === '1')).toHaveLength(1);
    expect(later.flat().filter((id) => id === '2')).toHaveLength(2);
  });

  it('drops an event id seen before, in the batch or by `seen`', async () => {
    const events = freshEvents();
    const handled: string[] = [];
    const done = new Set<string>(['already-done']);
    await started({
      nats,
      events,
      consumer: { name: 'dedup' },
      names: NAMES,
      logger: recordingLogger(),
      seen: async (ids) => new Set(ids.filter((id) => done.has(id))),
      handle: async (event) => {
        handled.push(event.id);
        done.add(event.id);
      },
    });
    // The same event delivered twice (as JetStream may), and one handled before.
    await publish(events, 'command-registry.command.deleted', DELETED, { id: 'twice' });
    await publish(events, 'command-registry.command.deleted', DELETED, { id: 'twice' });
    await publish(events, 'command-registry.command.deleted', DELETED, { id: 'already-done' });
    await publish(events, 'command-registry.command.deleted', DELETED, { id: 'last' });
    await until('the last event', () => handled.includes('last'));
    await settled(events, 'dedup');
    expect(handled).toEqual(['twice', 'last']);
  });

  it('shares a durable consumer between replicas; a per-replica consumer sees every event', async () => {
    const events = freshEvents();
    const shared: string[] = [];
    const own: Record<string, string[]> = { a: [], b: [] };
    for (const replica of ['a', 'b']) {
      await started({
        nats,
        events,
        consumer: { name: 'shared' },
        names: NAMES,
        logger: recordingLogger(),
        handle: async (event) => {
          shared.push(event.id);
        },
      });
      await started({
        nats,
        events,
        consumer: { name: `replica-${replica}`, scope: 'per-replica', inactiveMs: 5000 },
        names: NAMES,
        logger: recordingLogger(),
        handle: async (event) => {
          own[replica]?.push(event.id);
        },
      });
    }
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await publish(events, 'command-registry.command.deleted', DELETED));
    await until('every replica', () => own.a?.length === 6 && own.b?.length === 6 && shared.length === 6);
    await settled(events, 'shared');
    expect(own.a).toEqual(ids);
    expect(own.b).toEqual(ids);
    expect([...shared].sort()).toEqual([...ids].sort());
  });

  it('makes its consumer again when it disappears', async () => {
    const events = freshEvents();
    const handled: string[] = [];
    const logger = recordingLogger();
    const consumer = start({
      nats,
      events,
      consumer: { name: 'recreated' },
      names: NAMES,
      logger,
      backoff: FAST,
      seen: async (ids) => new Set(ids.filter((id) => handled.includes(id))),
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    await consumer.ready;
    await publish(events, 'command-registry.command.deleted', DELETED, { id: 'before' });
    await until('the first event', () => handled.includes('before'));
    await (await nats.jetstreamManager()).consumers.delete(events.stream, 'recreated');
    await until('the interruption', () =>
      logger.lines.some((l) => l.msg === 'event consumer interrupted; resuming'),
    );
    await publish(events, 'command-registry.command.deleted', DELETED, { id: 'after' });
    await until('the event after', () => handled.includes('after'));
    expect(handled).toEqual(['before', 'after']);
  });

  it('connects with backoff while NATS is away, and resumes after an outage', async () => {
    const events = freshEvents();
    const server = new URL(natsUrl);
    const proxy = new TcpProxy(server.hostname, Number(server.port || 4222));
    await proxy.open();
    await proxy.cut(); // keeps its port, refusing connections
    const handled: string[] = [];
    const logger = recordingLogger();
    const consumer = start({
      nats: { servers: `nats://127.0.0.1:${proxy.port}`, name: 'test' },
      events,
      consumer: { name: 'patient' },
      names: NAMES,
      logger,
      backoff: FAST,
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    try {
      const waits = await until('three connection attempts', () => {
        const retries = logger.lines.filter((l) => l.msg === 'NATS not reachable yet; retrying');
        return retries.length >= 3 && retries.map((l) => l.obj.retryInMs);
      });
      expect(waits.slice(0, 3)).toEqual([50, 100, 200]);
      expect(consumer.isConnected()).toBe(false);

      await proxy.open();
      await consumer.ready;
      await publish(events, 'command-registry.command.deleted', DELETED, { id: 'first' });
      await until('the first event', () => handled.includes('first'));

      await proxy.cut();
      await publish(events, 'command-registry.command.deleted', DELETED, { id: 'during' });
      await new Promise((r) => setTimeout(r, 300));
      expect(handled).toEqual(['first']);
      await proxy.open();
      // The client reconnects within a second or two and its pull resumes on the next
      // heartbeat check; a loaded CI machine has been seen to need more than 20 s for both.
      await until('the event published during the outage', () => handled.includes('during'), 45_000);
      expect(consumer.isConnected()).toBe(true);
    } finally {
      await consumer.stop();
      await proxy.close();
    }
  }, 70_000);

  it('stops at once while it cannot connect', async () => {
    const consumer = startEventConsumer({
      nats: { servers: 'nats://127.0.0.1:1', name: 'test' },
      events: freshEvents(),
      consumer: { name: 'never' },
      names: NAMES,
      logger: recordingLogger(),
      handle: async () => undefined,
    });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await consumer.stop();
    await consumer.ready;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
