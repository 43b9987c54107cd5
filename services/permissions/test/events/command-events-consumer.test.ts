import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { createLogger } from '@acs/service-kit';
import { planPermissionCleanup } from '../../src/domain/command-permissions/plan-permission-cleanup';
import { COMMAND_EVENTS_DURABLE, CommandEventsConsumer } from '../../src/events/command-events-consumer';
import { CommandPermissionsStore } from '../../src/store/command-permissions-store';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

const APP = '4000';
const OWNER = '1000';

describe('planPermissionCleanup', () => {
  it.each([
    [
      'a delete removes every row of the command',
      'command.deleted',
      { command_id: '77', version: '9' },
      { commandId: '77' },
    ],
    [
      'a rename removes rows older than its version',
      'command.renamed',
      { command_id: '77', version: '9' },
      { commandId: '77', beforeVersion: '9' },
    ],
    ['a rename without a version means nothing', 'command.renamed', { command_id: '77' }, null],
    ['created means nothing', 'command.created', { command_id: '77', version: '9' }, null],
    ['updated (same name) means nothing', 'command.updated', { command_id: '77', version: '9' }, null],
    ['a bad id means nothing', 'command.deleted', { command_id: '7x' }, null],
    ['no data means nothing', 'command.deleted', null, null],
  ])('%s', (_name, type, data, expected) => {
    expect(planPermissionCleanup(type, data)).toEqual(expected);
  });
});

describe('CommandEventsConsumer against NATS and PostgreSQL', () => {
  let db: StoreFixture;
  let store: CommandPermissionsStore;
  let nats: NatsConnection;
  let consumer: CommandEventsConsumer;
  const events = {
    stream: `PERM_T${randomBytes(4).toString('hex')}`,
    subjectPrefix: `p${randomBytes(4).toString('hex')}`,
  };
  let guildId: string;

  beforeAll(async () => {
    db = await createStoreFixture();
    store = new CommandPermissionsStore(db.prisma);
    nats = await connect({ servers: db.database.natsUrl });
    consumer = new CommandEventsConsumer({
      natsUrl: db.database.natsUrl,
      events,
      store,
      logger: createLogger('permissions', process.env.TEST_LOG ?? 'silent'),
    });
    consumer.start();
    ({
      guild: { id: guildId },
    } = await db.guilds.createGuild({ name: 'Events', ownerId: OWNER }));
  });

  afterAll(async () => {
    await consumer?.stop();
    await (await nats?.jetstreamManager())?.streams.delete(events.stream).catch(() => undefined);
    await nats?.close();
    await db?.close();
  });

  const write = (commandId: string, version: string) =>
    store.replace({
      guildId,
      applicationId: APP,
      commandId,
      commandName: 'ban',
      commandVersion: version,
      permissions: [{ id: guildId, type: 1, permission: false }],
    });
  const rowsOf = async (commandId: string) =>
    (await store.listByIds(guildId, [commandId])).map((e) => e.commandVersion);
  const publish = (type: string, data: unknown, id = randomBytes(8).toString('hex')) =>
    nats
      .jetstream()
      .publish(
        `${events.subjectPrefix}.command-registry.${type}`,
        JSON.stringify({ id, type, occurred_at: new Date().toISOString(), data }),
      );

  /** Waits until the durable consumer has acknowledged everything published so far. */
  async function drained(): Promise<void> {
    const jsm = await nats.jetstreamManager();
    for (let i = 0; i < 200; i++) {
      const info = await jsm.consumers.info(events.stream, COMMAND_EVENTS_DURABLE).catch(() => null);
      if (info && info.num_pending === 0 && info.num_ack_pending === 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the consumer did not catch up');
  }

  it("deletes a deleted command's rows, acknowledges, and takes a redelivery of the same event", async () => {
    await write('500', '3');
    await write('501', '3');
    await publish('command.created', { command_id: '500', version: '3' });
    await publish('command.deleted', { command_id: '500', version: '3' }, 'same-event');
    await drained();
    expect(await rowsOf('500')).toEqual([]);
    expect(await rowsOf('501')).toEqual(['3']);
    await publish('command.deleted', { command_id: '500', version: '3' }, 'same-event-again');
    await drained();
    expect(await rowsOf('501')).toEqual(['3']);
  });

  it('deletes rows written before a rename and keeps those written for the new name, whatever the order', async () => {
    await write('600', '5');
    await publish('command.renamed', { command_id: '600', version: '6', name: 'kick', previous_name: 'ban' });
    await drained();
    expect(await rowsOf('600')).toEqual([]);
    // Written after the rename (version 6), then the rename event comes again (late, or redelivered).
    await write('600', '6');
    await publish('command.renamed', { command_id: '600', version: '6', name: 'kick', previous_name: 'ban' });
    await drained();
    expect(await rowsOf('600')).toEqual(['6']);
  });

  it("leaves the app-level entry alone (its id is the application id, never a command's)", async () => {
    await store.replace({
      guildId,
      applicationId: APP,
      commandId: APP,
      commandName: null,
      commandVersion: '0',
      permissions: [{ id: guildId, type: 1, permission: true }],
    });
    await publish('command.deleted', { command_id: APP, version: '1' });
    await drained();
    expect(await rowsOf(APP)).toEqual(['0']);
  });
});
