import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { createLogger } from '@acs/service-kit';
import { readEvent, type RunningConsumer } from '@acs/events';
import { planPermissionCleanup } from '../../src/domain/command-permissions/plan-permission-cleanup';
import {
  COMMAND_EVENTS_DURABLE,
  COMMAND_REMOVAL_EVENTS,
  startCommandEventsConsumer,
} from '../../src/events/command-events-consumer';
import { CommandPermissionsStore } from '../../src/store/command-permissions-store';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

const APP = '4000';
const OWNER = '1000';

/** The data of a command event of the catalog: command `commandId` at `version`. */
const commandData = (commandId: string, version: string) => ({
  application_id: APP,
  guild_id: null,
  command_id: commandId,
  type: 1,
  name: 'kick',
  version,
});

describe('planPermissionCleanup', () => {
  it('a delete removes every row of the command', () => {
    expect(
      planPermissionCleanup({ name: 'command-registry.command.deleted', data: commandData('77', '9') }),
    ).toEqual({
      commandId: '77',
    });
  });

  it('a rename removes rows older than its version', () => {
    expect(
      planPermissionCleanup({
        name: 'command-registry.command.renamed',
        data: { ...commandData('77', '9'), previous_name: 'ban' },
      }),
    ).toEqual({ commandId: '77', beforeVersion: '9' });
  });
});

describe('the events the consumer reads', () => {
  const names = new Set(COMMAND_REMOVAL_EVENTS);
  const message = (type: string, data: unknown) =>
    Buffer.from(JSON.stringify({ id: 'e1', type, occurred_at: new Date().toISOString(), data }));

  it.each([
    [
      'a rename without a version means nothing',
      'command.renamed',
      { command_id: '77', previous_name: 'ban' },
    ],
    ['a bad id means nothing', 'command.deleted', { ...commandData('7x', '9') }],
    ['no data means nothing', 'command.deleted', null],
  ])('%s (refused by the catalog)', (_name, type, data) => {
    expect(readEvent(`command-registry.${type}`, message(type, data), names).kind).toBe('invalid');
  });

  it.each([
    ['created means nothing', 'command.created'],
    ['updated (same name) means nothing', 'command.updated'],
  ])('%s (not read)', (_name, type) => {
    expect(readEvent(`command-registry.${type}`, message(type, commandData('77', '9')), names).kind).toBe(
      'ignored',
    );
  });
});

describe('CommandEventsConsumer against NATS and PostgreSQL', () => {
  let db: StoreFixture;
  let store: CommandPermissionsStore;
  let nats: NatsConnection;
  let consumer: RunningConsumer;
  const events = {
    stream: `PERM_T${randomBytes(4).toString('hex')}`,
    subjectPrefix: `p${randomBytes(4).toString('hex')}`,
  };
  let guildId: string;

  beforeAll(async () => {
    db = await createStoreFixture();
    store = new CommandPermissionsStore(db.prisma);
    nats = await connect({ servers: db.database.natsUrl });
    consumer = startCommandEventsConsumer({
      natsUrl: db.database.natsUrl,
      events,
      store,
      logger: createLogger('permissions', process.env.TEST_LOG ?? 'silent'),
    });
    await consumer.ready;
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
  /** Publishes command-registry's event `type` for command `commandId` at `version`. */
  const publish = (
    type: string,
    commandId: string,
    version: string,
    id = randomBytes(8).toString('hex'),
    extra: object = {},
  ) =>
    nats.jetstream().publish(
      `${events.subjectPrefix}.command-registry.${type}`,
      JSON.stringify({
        id,
        type,
        occurred_at: new Date().toISOString(),
        data: { ...commandData(commandId, version), ...extra },
      }),
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
    await publish('command.created', '500', '3');
    await publish('command.deleted', '500', '3', 'same-event');
    await drained();
    expect(await rowsOf('500')).toEqual([]);
    expect(await rowsOf('501')).toEqual(['3']);
    await publish('command.deleted', '500', '3', 'same-event-again');
    await drained();
    expect(await rowsOf('501')).toEqual(['3']);
  });

  it('deletes rows written before a rename and keeps those written for the new name, whatever the order', async () => {
    await write('600', '5');
    await publish('command.renamed', '600', '6', undefined, { previous_name: 'ban' });
    await drained();
    expect(await rowsOf('600')).toEqual([]);
    // Written after the rename (version 6), then the rename event comes again (late, or redelivered).
    await write('600', '6');
    await publish('command.renamed', '600', '6', undefined, { previous_name: 'ban' });
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
    await publish('command.deleted', APP, '1');
    await drained();
    expect(await rowsOf(APP)).toEqual(['0']);
  });
});
