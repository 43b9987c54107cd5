import type { permissions } from '@acs/protos';
import { callUnary } from '@acs/service-kit';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';
import { CommandPermissionsStore } from '../../src/store/command-permissions-store';
import { FakeCommandRegistry } from '../support/fake-command-registry';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { errorOf } from '../support/errors';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

const OWNER = '1000';
const MANAGER = '2000';
const MEMBER = '3000';
const APP = '4000';
const COMMAND = '5000';
const OTHER_COMMAND = '5001';

let db: StoreFixture;
let server: TestServer;
let client: permissions.PermissionsServiceClient;
// What command-registry has: each request carries its answer, as api-gateway passes it.
const registry = new FakeCommandRegistry();

beforeAll(async () => {
  db = await createStoreFixture();
  server = await startTestServer(db);
  client = server.client;
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

/** A guild with a manager (MANAGE_GUILD + MANAGE_ROLES + MANAGE_CHANNELS), a plain member, a role, a channel and a thread. */
async function world() {
  const { guild } = await db.guilds.createGuild({ name: 'Perms', ownerId: OWNER });
  const managers = await db.guilds.createRole(guild.id, {
    name: 'managers',
    permissions: P.MANAGE_GUILD | P.MANAGE_ROLES | P.MANAGE_CHANNELS,
  });
  const mods = await db.guilds.createRole(guild.id, { name: 'mods', permissions: 0n });
  await db.members.putMember(guild.id, MANAGER, { roles: [managers.id] });
  await db.members.putMember(guild.id, MEMBER, { roles: [mods.id] });
  const { channel } = await db.channels.createChannel(guild.id, {
    name: 'general',
    type: 0,
    parentId: null,
    overwrites: [],
  });
  const { channel: thread } = await db.channels.createChannel(guild.id, {
    name: 'thread',
    type: 11,
    parentId: channel.id,
    overwrites: [],
  });
  return { guildId: guild.id, modsId: mods.id, channelId: channel.id, threadId: thread.id };
}

const put = (guildId: string, commandId: string, body: unknown, userId = MANAGER) =>
  callUnary(client, client.UpdateCommandPermissions, {
    application_id: APP,
    guild_id: guildId,
    command_id: commandId,
    user_id: userId,
    body_json: JSON.stringify(body),
    commands: registry.resolve(APP, [commandId]),
  });
const get = (guildId: string, commandId: string) =>
  callUnary(client, client.GetCommandPermissions, {
    application_id: APP,
    guild_id: guildId,
    command_id: commandId,
    commands: registry.resolve(APP, [commandId]),
  });
const list = async (guildId: string) =>
  JSON.parse(
    (
      await callUnary(client, client.ListCommandPermissions, {
        application_id: APP,
        guild_id: guildId,
        commands: registry.resolve(APP, 'all'),
      })
    ).permissions_json,
  );
const check = (request: Omit<permissions.CheckCommandPermissionRequest, 'application_id' | 'commands'>) =>
  callUnary(client, client.CheckCommandPermission, {
    application_id: APP,
    ...request,
    commands: registry.resolve(APP, [request.command_id ?? '']),
  });
/** The picker's question, the candidates as command-registry has them. */
const usableOf = async (guildId: string, channelId: string, commandIds: string[]) =>
  (
    await callUnary(client, client.FilterUsableCommands, {
      guild_id: guildId,
      channel_id: channelId,
      user_id: MEMBER,
      commands: registry.resolve(APP, commandIds),
    })
  ).command_ids;

beforeEach(() => {
  registry.commands.clear();
  registry.put(APP, {
    id: COMMAND,
    name: 'ban',
    version: '10',
    namedVersion: '10',
    defaultMemberPermissions: null,
  });
  registry.put(APP, {
    id: OTHER_COMMAND,
    name: 'kick',
    version: '10',
    namedVersion: '10',
    defaultMemberPermissions: P.KICK_MEMBERS,
  });
});

describe('command permissions over gRPC', () => {
  it('overwrites, reads back, lists with the app-level entry, and writes the event in the same transaction', async () => {
    const { guildId, modsId, channelId } = await world();
    const body = {
      permissions: [
        { id: modsId, type: 1, permission: true },
        { id: guildId, type: 1, permission: false },
        { id: String(BigInt(guildId) - 1n), type: 3, permission: false },
        { id: channelId, type: 3, permission: true },
        { id: MEMBER, type: 2, permission: false },
      ],
    };
    const expected = { id: COMMAND, application_id: APP, guild_id: guildId, permissions: body.permissions };
    expect(JSON.parse((await put(guildId, COMMAND, body)).permissions_json)).toEqual(expected);
    expect(JSON.parse((await get(guildId, COMMAND)).permissions_json)).toEqual(expected);

    const appLevel = { permissions: [{ id: guildId, type: 1, permission: true }] };
    await put(guildId, APP, appLevel);
    expect(await list(guildId)).toEqual(
      expect.arrayContaining([expected, { id: APP, application_id: APP, guild_id: guildId, ...appLevel }]),
    );
    expect(await list(guildId)).toHaveLength(2);

    const events = await db.prisma.outboxEvent.findMany({
      where: { subject: 'acs.permissions.application_command_permissions.updated' },
      orderBy: { seq: 'asc' },
    });
    expect(events.map((e) => (e.payload as { data: unknown }).data)).toEqual(
      expect.arrayContaining([expected, { id: APP, application_id: APP, guild_id: guildId, ...appLevel }]),
    );

    // An empty list removes the entry (by the owner: @everyone is now denied, so the manager
    // can no longer use the command, nor edit its permissions).
    expect((await errorOf(put(guildId, COMMAND, { permissions: [] }))).toBody()).toEqual({
      code: 50013,
      message:
        'Missing Permissions: you cannot use this command in this guild (everyone), so you cannot edit its permissions',
    });
    expect(
      JSON.parse((await put(guildId, COMMAND, { permissions: [] }, OWNER)).permissions_json).permissions,
    ).toEqual([]);
    expect((await errorOf(get(guildId, COMMAND))).toBody()).toEqual({
      code: 10066,
      message: 'Unknown application command permissions',
    });
  });

  it('answers 10066 when a command has none, 10004 for an unknown guild, 10063 for an unknown command', async () => {
    const { guildId } = await world();
    expect((await errorOf(get(guildId, OTHER_COMMAND))).code).toBe(10066);
    expect(await list(guildId)).toEqual([]);
    expect((await errorOf(get('999999', COMMAND))).code).toBe(10004);
    const unknown = await errorOf(put(guildId, '777', { permissions: [] }));
    expect(unknown.httpStatus).toBe(404);
    expect(unknown.toBody()).toEqual({ code: 10063, message: 'Unknown application command' });
  });

  it("takes the registry's facts from the request: 10063 for another app's command, 50035 for a malformed one", async () => {
    const { guildId } = await world();
    registry.put('4001', {
      id: '5002',
      name: 'theirs',
      version: '10',
      namedVersion: '10',
      defaultMemberPermissions: null,
    });
    const theirs = registry.resolve('4001', ['5002']);
    const request = { guild_id: guildId, user_id: MEMBER, channel_id: '', command_id: '5002' };
    const asked = (commands: permissions.RegisteredCommand[]) =>
      callUnary(client, client.CheckCommandPermission, { ...request, application_id: APP, commands });
    expect((await errorOf(asked(theirs))).code).toBe(10063);
    expect(
      (await errorOf(asked([{ ...theirs[0], application_id: APP, named_version: 'ten' }]))).toBody(),
    ).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        commands: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "ten" is not snowflake.' }] },
      },
    });
    expect(
      (await errorOf(asked([{ ...theirs[0], application_id: APP, default_member_permissions: '-1' }]))).code,
    ).toBe(50035);
    // A PUT stores the name: no U+0000 in it.
    expect(
      (await errorOf(asked([{ ...theirs[0], application_id: APP, name: 'the\u0000irs' }]))).toBody(),
    ).toMatchObject({ errors: { commands: { _errors: [{ code: 'STRING_TYPE_NUL_CHARACTER' }] } } });
    // As command-registry of the app would answer: decided.
    expect(await asked([{ ...theirs[0], application_id: APP }])).toMatchObject({
      allowed: true,
      reason: 'no_default_member_permissions',
    });
  });

  it('requires MANAGE_GUILD and MANAGE_ROLES of the editing user, naming what is missing', async () => {
    const { guildId } = await world();
    const error = await errorOf(put(guildId, COMMAND, { permissions: [] }, MEMBER));
    expect(error.httpStatus).toBe(403);
    expect(error.toBody()).toEqual({
      code: 50013,
      message: 'Missing Permissions: MANAGE_GUILD, MANAGE_ROLES',
    });
    expect((await errorOf(put(guildId, COMMAND, { permissions: [] }, '424242'))).code).toBe(50013);
    await expect(put(guildId, COMMAND, { permissions: [] }, OWNER)).resolves.toBeDefined();
  });

  it('refuses a role above the editor and a channel the editor cannot manage, and a command the editor cannot use', async () => {
    const { guildId, modsId, channelId } = await world();
    const seniors = await db.guilds.createRole(guildId, { name: 'seniors', permissions: 0n, position: 10 });
    const roleAbove = await errorOf(
      put(guildId, COMMAND, { permissions: [{ id: seniors.id, type: 1, permission: true }] }),
    );
    expect(roleAbove.toBody()).toEqual({
      code: 50013,
      message: `Missing Permissions: role ${seniors.id} is not below your highest role`,
    });
    const { channel: locked } = await db.channels.createChannel(guildId, {
      name: 'locked',
      type: 0,
      parentId: null,
      overwrites: [{ id: guildId, type: 0, allow: 0n, deny: P.VIEW_CHANNEL }],
    });
    const hidden = await errorOf(
      put(guildId, COMMAND, { permissions: [{ id: locked.id, type: 3, permission: true }] }),
    );
    expect(hidden.toBody()).toEqual({
      code: 50013,
      message: `Missing Permissions: MANAGE_CHANNELS in channel ${locked.id}`,
    });
    // KICK_MEMBERS by default: the manager cannot use /kick, so cannot edit it.
    expect((await errorOf(put(guildId, OTHER_COMMAND, { permissions: [] }))).message).toBe(
      'Missing Permissions: you cannot use this command in this guild (default_member_permissions), so you cannot edit its permissions',
    );
    // The owner passes every rule.
    const body = {
      permissions: [
        { id: seniors.id, type: 1, permission: true },
        { id: locked.id, type: 3, permission: true },
      ],
    };
    await put(guildId, OTHER_COMMAND, body, OWNER);
    // Below the manager's role, in a channel they manage: fine.
    await put(guildId, COMMAND, {
      permissions: [
        { id: modsId, type: 1, permission: true },
        { id: channelId, type: 3, permission: true },
      ],
    });
    // Rows of these command ids would count in other tests' deletes (they span guilds).
    await put(guildId, COMMAND, { permissions: [] }, OWNER);
    await put(guildId, OTHER_COMMAND, { permissions: [] }, OWNER);
  });

  it('rejects 101 overwrites, bad fields, duplicates, and ids not in the guild with the index of the entry', async () => {
    const { guildId, threadId } = await world();
    const many = Array.from({ length: 101 }, (_, i) => ({
      id: String(10_000 + i),
      type: 2,
      permission: true,
    }));
    expect((await errorOf(put(guildId, COMMAND, { permissions: many }))).toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        permissions: {
          _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer in length.' }],
        },
      },
    });

    const fields = await errorOf(
      put(guildId, COMMAND, { permissions: [{ id: 'x', type: 4, permission: 'yes' }] }),
    );
    expect(fields.toBody()).toMatchObject({
      code: 50035,
      errors: {
        permissions: {
          '0': {
            id: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] },
            type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (1, 2, 3).' }] },
            permission: { _errors: [{ code: 'BASE_TYPE_BOOLEAN' }] },
          },
        },
      },
    });
    expect((await errorOf(put(guildId, COMMAND, {}))).toBody()).toMatchObject({
      errors: { permissions: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } },
    });
    const duplicate = await errorOf(
      put(guildId, COMMAND, {
        permissions: [
          { id: guildId, type: 1, permission: true },
          { id: guildId, type: 1, permission: false },
        ],
      }),
    );
    expect(duplicate.toBody()).toMatchObject({
      errors: { permissions: { '1': { id: { _errors: [{ code: 'SET_TYPE_ALREADY_CONTAINS_VALUE' }] } } } },
    });

    const unknown = await errorOf(
      put(guildId, COMMAND, {
        permissions: [
          { id: guildId, type: 1, permission: true },
          { id: '123456', type: 1, permission: true },
          { id: MEMBER, type: 2, permission: true },
          { id: '654321', type: 2, permission: true },
          { id: threadId, type: 3, permission: true },
          { id: guildId, type: 3, permission: true },
        ],
      }),
    );
    expect(unknown.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        permissions: {
          '1': {
            id: {
              _errors: [
                { code: 'UNKNOWN_ROLE', message: 'Unknown role: 123456 is not a role of this guild' },
              ],
            },
          },
          '3': {
            id: {
              _errors: [
                { code: 'UNKNOWN_USER', message: 'Unknown user: 654321 is not a member of this guild' },
              ],
            },
          },
          '4': { id: { _errors: [expect.objectContaining({ code: 'UNKNOWN_CHANNEL' })] } },
          '5': { id: { _errors: [expect.objectContaining({ code: 'UNKNOWN_CHANNEL' })] } },
        },
      },
    });
    expect((await errorOf(get(guildId, COMMAND))).code).toBe(10066);
  });

  it('hides the permissions of a deleted or renamed command at once; the events delete the rows', async () => {
    const { guildId } = await world();
    const body = { permissions: [{ id: guildId, type: 1, permission: false }] };
    await put(guildId, COMMAND, body);
    await put(guildId, OTHER_COMMAND, body, OWNER);

    // Renamed in command-registry: gone from the next read, before any event is consumed.
    registry.put(APP, {
      id: COMMAND,
      name: 'banish',
      version: '11',
      namedVersion: '11',
      defaultMemberPermissions: null,
    });
    expect((await errorOf(get(guildId, COMMAND))).code).toBe(10066);
    // Deleted in command-registry.
    registry.commands.delete(OTHER_COMMAND);
    expect((await errorOf(get(guildId, OTHER_COMMAND))).code).toBe(10066);
    expect(await list(guildId)).toEqual([]);
    // Nor does the decision see them.
    expect(
      await check({ guild_id: guildId, user_id: MEMBER, command_id: COMMAND, channel_id: '' }),
    ).toMatchObject({
      allowed: true,
      reason: 'no_default_member_permissions',
    });

    // New permissions of the renamed command count; the rename's event (version 11)
    // deletes only rows checked against an older version.
    await put(guildId, COMMAND, body);
    const store = new CommandPermissionsStore(db.prisma);
    expect(await store.deleteForCommand(COMMAND, '11')).toBe(0);
    expect(JSON.parse((await get(guildId, COMMAND)).permissions_json).permissions).toEqual(body.permissions);
    expect(await store.deleteForCommand(OTHER_COMMAND)).toBe(1);
    expect(await store.deleteForCommand(OTHER_COMMAND)).toBe(0);
    expect(await store.deleteForCommand(COMMAND, '12')).toBe(1);
    expect((await errorOf(get(guildId, COMMAND))).code).toBe(10066);
  });

  it('keeps them through an edit that keeps the name, and hides them after a rename A → B → A', async () => {
    const { guildId } = await world();
    const body = { permissions: [{ id: guildId, type: 1, permission: false }] };
    await put(guildId, COMMAND, body);
    const registryNow = (name: string, version: string, namedVersion: string) =>
      registry.put(APP, { id: COMMAND, name, version, namedVersion, defaultMemberPermissions: null });
    const usable = () => usableOf(guildId, '', [COMMAND]);
    const decision = async () =>
      (await check({ guild_id: guildId, user_id: MEMBER, command_id: COMMAND, channel_id: '' })).reason;

    // A new description: a new version, the same name since version 10.
    registryNow('ban', '11', '10');
    expect(JSON.parse((await get(guildId, COMMAND)).permissions_json).permissions).toEqual(body.permissions);
    expect(await decision()).toBe('everyone');
    expect(await usable()).toEqual([]);

    // ban → banish → ban before any event is consumed: the name is the stored one again.
    registryNow('banish', '12', '12');
    registryNow('ban', '13', '13');
    expect((await errorOf(get(guildId, COMMAND))).code).toBe(10066);
    expect(await list(guildId)).toEqual([]);
    expect(await decision()).toBe('no_default_member_permissions');
    expect(await usable()).toEqual([COMMAND]);

    // Written for the name as it is now: they apply, and the renames' events keep them.
    await put(guildId, COMMAND, body);
    expect(await decision()).toBe('everyone');
    const store = new CommandPermissionsStore(db.prisma);
    expect(await store.deleteForCommand(COMMAND, '13')).toBe(0);
    expect(JSON.parse((await get(guildId, COMMAND)).permissions_json).permissions).toEqual(body.permissions);
  });

  it('decides over gRPC with the reason; threads follow their parent channel', async () => {
    const { guildId, modsId, channelId, threadId } = await world();
    await put(guildId, COMMAND, {
      permissions: [
        { id: channelId, type: 3, permission: false },
        { id: modsId, type: 1, permission: true },
      ],
    });
    expect(
      await check({ guild_id: guildId, user_id: MEMBER, command_id: COMMAND, channel_id: threadId }),
    ).toEqual({
      allowed: false,
      reason: 'channel',
      level: 'command',
      overwrite_id: channelId,
      missing: '',
    });
    expect(
      await check({ guild_id: guildId, user_id: MEMBER, command_id: COMMAND, channel_id: '' }),
    ).toMatchObject({
      allowed: true,
      reason: 'role',
      overwrite_id: modsId,
    });
    expect(
      await check({ guild_id: guildId, user_id: OWNER, command_id: COMMAND, channel_id: threadId }),
    ).toMatchObject({
      allowed: true,
      reason: 'administrator',
    });
    expect(
      await check({ guild_id: guildId, user_id: MEMBER, command_id: OTHER_COMMAND, channel_id: '' }),
    ).toEqual({
      allowed: false,
      reason: 'default_member_permissions',
      level: '',
      overwrite_id: '',
      missing: String(P.KICK_MEMBERS),
    });
    expect(
      await check({ guild_id: guildId, user_id: '999', command_id: COMMAND, channel_id: '' }),
    ).toMatchObject({
      allowed: false,
      reason: 'not_member',
    });
    expect(
      (await errorOf(check({ guild_id: guildId, user_id: MEMBER, command_id: '777', channel_id: '' }))).code,
    ).toBe(10063);

    // ban and kick (KICK_MEMBERS by default).
    expect(await usableOf(guildId, '', [COMMAND, OTHER_COMMAND])).toEqual([COMMAND]);
    expect(await usableOf(guildId, channelId, [COMMAND])).toEqual([]);
    // Renamed since its permissions were written: they no longer apply.
    registry.put(APP, {
      id: COMMAND,
      name: 'banish',
      version: '11',
      namedVersion: '11',
      defaultMemberPermissions: null,
    });
    expect(await usableOf(guildId, channelId, [COMMAND])).toEqual([COMMAND]);
  });
});
