import type { permissions } from '@acs/protos';
import { callUnary } from '@acs/service-kit';
import { CommandPermissionType } from '../../src/domain/command-permissions/command-permission-model';
import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { ALL_PERMISSIONS, PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';
import { FakeCommandRegistry } from '../support/fake-command-registry';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { errorOf } from '../support/errors';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

// DescribeInvocationContext over gRPC against PostgreSQL: a guild whose channel overwrites
// change what the invoker and the app may do, a bot that is a member and one that is not,
// the command decision (the same as CheckCommandPermission's), resolved ids, and DMs.

const OWNER = '1000';
const MEMBER = '2000';
const TARGET = '2500';
const STRANGER = '2600';
const APP = '4000';
const USER_APP = '4100';
const COMMAND = '5000';
const ADMIN_COMMAND = '5001';
const UNKNOWN = '999999';

/** What a member keeps in a channel where SEND_MESSAGES is denied (D:topics/permissions.mdx §Implicit Permissions). */
const SENDING_DEPENDENT = P.MENTION_EVERYONE | P.SEND_TTS_MESSAGES | P.ATTACH_FILES | P.EMBED_LINKS;

let db: StoreFixture;
let server: TestServer;
let client: permissions.PermissionsServiceClient;
const registry = new FakeCommandRegistry();
let w: Awaited<ReturnType<typeof world>>;

/**
 * A guild (locale fr) with a `mods` role (MANAGE_MESSAGES) for MEMBER, a `muted` role for
 * TARGET, APP's bot with a managed role (VIEW_CHANNEL | SEND_MESSAGES | MANAGE_ROLES),
 * USER_APP without a bot there, and channels: `general` (@everyone may not react),
 * `locked` (hidden from @everyone, visible to mods, who may not send) with a thread, and a
 * channel of another guild.
 */
async function world() {
  const created = await callUnary(client, client.CreateGuild, {
    body_json: JSON.stringify({ name: 'Invocations', owner_id: OWNER, preferred_locale: 'fr' }),
  });
  const guildId = JSON.parse(created.guild_json).id as string;
  const mods = await db.guilds.createRole(guildId, { name: 'mods', permissions: P.MANAGE_MESSAGES });
  const muted = await db.guilds.createRole(guildId, { name: 'muted', permissions: 0n });
  await db.members.putMember(guildId, MEMBER, { roles: [mods.id], nick: 'Mem' });
  await db.members.putMember(guildId, TARGET, { roles: [muted.id] });
  const bot = await db.bots.putBotMember({
    guildId,
    botId: APP,
    roleName: 'App',
    permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.MANAGE_ROLES,
  });
  const createChannel = async (body: unknown) =>
    JSON.parse(
      (await callUnary(client, client.CreateChannel, { guild_id: guildId, body_json: JSON.stringify(body) }))
        .channel_json,
    );
  const general = await createChannel({
    name: 'general',
    type: 0,
    permission_overwrites: [{ id: guildId, type: 0, deny: String(P.ADD_REACTIONS) }],
  });
  const locked = await createChannel({
    name: 'locked',
    type: 0,
    permission_overwrites: [
      { id: guildId, type: 0, deny: String(P.VIEW_CHANNEL) },
      { id: mods.id, type: 0, allow: String(P.VIEW_CHANNEL), deny: String(P.SEND_MESSAGES) },
    ],
  });
  const thread = await createChannel({ name: 'thread', type: 11, parent_id: locked.id });
  const { guild: other } = await db.guilds.createGuild({ name: 'Other', ownerId: OWNER });
  const { channel: foreign } = await db.channels.createChannel(other.id, {
    name: 'foreign',
    type: 0,
    parentId: null,
    overwrites: [],
  });
  return { guildId, mods, muted, botRole: bot.role!, general, locked, thread, otherGuild: other, foreign };
}

beforeAll(async () => {
  db = await createStoreFixture();
  server = await startTestServer(db);
  client = server.client;
  w = await world();
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

beforeEach(() => {
  registry.commands.clear();
  registry.put(APP, {
    id: COMMAND,
    name: 'ping',
    version: '10',
    namedVersion: '10',
    defaultMemberPermissions: null,
  });
  registry.put(APP, {
    id: ADMIN_COMMAND,
    name: 'admin',
    version: '10',
    namedVersion: '10',
    defaultMemberPermissions: P.MANAGE_GUILD,
  });
});

const describeIn = (request: Partial<permissions.DescribeInvocationContextRequest>, commandId = COMMAND) =>
  callUnary(client, client.DescribeInvocationContext, {
    guild_id: w.guildId,
    user_id: MEMBER,
    application_id: APP,
    command: registry.resolve(APP, [commandId])[0],
    ...request,
  });
const checkCommand = (channelId: string, commandId: string, userId = MEMBER) =>
  callUnary(client, client.CheckCommandPermission, {
    guild_id: w.guildId,
    channel_id: channelId,
    user_id: userId,
    application_id: APP,
    command_id: commandId,
    commands: registry.resolve(APP, [commandId]),
  });
/** The user's permissions in a channel as CheckPermissions reports them: every bit not missing. */
const checkedPermissions = async (userId: string, channelId: string) => {
  const answer = await callUnary(client, client.CheckPermissions, {
    guild_id: w.guildId,
    user_id: userId,
    channel_id: channelId,
    permissions: ALL_PERMISSIONS.toString(),
  });
  return (ALL_PERMISSIONS & ~BigInt(answer.missing)).toString();
};
const expectError = async (call: Promise<unknown>, status: number, code: number) => {
  const error = await errorOf(call);
  expect({ status: error.httpStatus, code: error.code }).toEqual({ status, code });
  return error;
};

describe('DescribeInvocationContext in a guild', () => {
  it('answers the channel, the guild, the member and both permission sets', async () => {
    const answer = await describeIn({ channel_id: w.general.id });
    const memberPermissions = (DEFAULT_EVERYONE_PERMISSIONS | P.MANAGE_MESSAGES) & ~P.ADD_REACTIONS;
    expect(JSON.parse(answer.channel_json)).toEqual(w.general);
    expect(JSON.parse(answer.guild_json)).toMatchObject({
      id: w.guildId,
      name: 'Invocations',
      features: [],
      preferred_locale: 'fr',
      owner_id: OWNER,
    });
    const member = JSON.parse(answer.member_json);
    expect(member).toEqual({
      nick: 'Mem',
      avatar: null,
      banner: null,
      roles: [w.mods.id],
      joined_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      communication_disabled_until: null,
      permissions: memberPermissions.toString(),
    });
    expect(Date.now() - Date.parse(member.joined_at)).toBeLessThan(60_000);
    expect(answer).toMatchObject({
      user_permissions: memberPermissions.toString(),
      app_permissions: ((DEFAULT_EVERYONE_PERMISSIONS | w.botRole.permissions) & ~P.ADD_REACTIONS).toString(),
      bot_is_member: true,
      allowed: true,
      reason: 'no_default_member_permissions',
      recipient_ids: [],
    });
    expect(answer.user_permissions).toBe(await checkedPermissions(MEMBER, w.general.id));
  });

  it('answers the upload limit an admin set with UpdateGuild, 0 when none is set', async () => {
    expect((await describeIn({ channel_id: w.general.id })).attachment_size_limit).toBe(0);
    const updated = await callUnary(client, client.UpdateGuild, {
      guild_id: w.guildId,
      body_json: JSON.stringify({ attachment_size_limit: 1024 }),
    });
    expect(JSON.parse(updated.guild_json)).toMatchObject({ id: w.guildId, name: 'Invocations' });
    expect((await describeIn({ channel_id: w.general.id })).attachment_size_limit).toBe(1024);
    // Refused: not an integer, out of range, a name too short, an unknown guild; null resets.
    for (const body of [
      { attachment_size_limit: 'big' },
      { attachment_size_limit: 0 },
      { attachment_size_limit: 2 ** 31 },
      { name: 'x' },
    ]) {
      const refused = await errorOf(
        callUnary(client, client.UpdateGuild, { guild_id: w.guildId, body_json: JSON.stringify(body) }),
      );
      expect({ body, status: refused.httpStatus, code: refused.code }).toEqual({
        body,
        status: 400,
        code: 50035,
      });
    }
    const unknown = await errorOf(
      callUnary(client, client.UpdateGuild, { guild_id: '1', body_json: '{"name":"Nope"}' }),
    );
    expect(unknown.code).toBe(10004);
    await callUnary(client, client.UpdateGuild, {
      guild_id: w.guildId,
      body_json: JSON.stringify({ attachment_size_limit: null }),
    });
    expect((await describeIn({ channel_id: w.general.id })).attachment_size_limit).toBe(0);
  });

  it('applies the channel overwrites and the implicit denials to the invoker and the bot', async () => {
    const answer = await describeIn({ channel_id: w.locked.id });
    const memberPermissions =
      (DEFAULT_EVERYONE_PERMISSIONS | P.MANAGE_MESSAGES) & ~P.SEND_MESSAGES & ~SENDING_DEPENDENT;
    expect(answer.user_permissions).toBe(memberPermissions.toString());
    expect(JSON.parse(answer.member_json).permissions).toBe(memberPermissions.toString());
    // @everyone may not view `locked` and the bot's role has no overwrite there: nothing.
    expect(answer.app_permissions).toBe('0');
    expect(answer.user_permissions).toBe(await checkedPermissions(MEMBER, w.locked.id));
  });

  it("judges a thread by its parent's overwrites", async () => {
    const answer = await describeIn({ channel_id: w.thread.id });
    expect(JSON.parse(answer.channel_json)).toEqual(w.thread);
    // In a thread the sending right is SEND_MESSAGES_IN_THREADS, which @everyone has.
    const memberPermissions = (DEFAULT_EVERYONE_PERMISSIONS | P.MANAGE_MESSAGES) & ~P.SEND_MESSAGES;
    expect(answer.user_permissions).toBe(memberPermissions.toString());
    expect(answer.user_permissions).toBe(await checkedPermissions(MEMBER, w.thread.id));
  });

  it("gives a bot that is not a member @everyone's permissions there", async () => {
    registry.put(USER_APP, {
      id: '5100',
      name: 'mine',
      version: '1',
      namedVersion: '1',
      defaultMemberPermissions: null,
    });
    const answer = await describeIn({
      channel_id: w.general.id,
      application_id: USER_APP,
      command: registry.resolve(USER_APP, ['5100'])[0],
    });
    expect(answer.bot_is_member).toBe(false);
    expect(answer.app_permissions).toBe((DEFAULT_EVERYONE_PERMISSIONS & ~P.ADD_REACTIONS).toString());
    expect(
      (await describeIn({ channel_id: w.locked.id, application_id: USER_APP, command: undefined }))
        .app_permissions,
    ).toBe('0');
  });

  it('decides as CheckCommandPermission does, command permissions and defaults included', async () => {
    const decisions = async (channelId: string, commandId: string, userId = MEMBER) => {
      const [described, checked] = await Promise.all([
        describeIn({ channel_id: channelId, user_id: userId }, commandId),
        checkCommand(channelId, commandId, userId),
      ]);
      expect({ allowed: described.allowed, reason: described.reason }).toEqual({
        allowed: checked.allowed,
        reason: checked.reason,
      });
      return { allowed: described.allowed, reason: described.reason };
    };
    expect(await decisions(w.general.id, ADMIN_COMMAND)).toEqual({
      allowed: false,
      reason: 'default_member_permissions',
    });
    expect(await decisions(w.general.id, ADMIN_COMMAND, OWNER)).toEqual({
      allowed: true,
      reason: 'administrator',
    });
    // The command turned off in `locked`: its thread follows.
    await db.commandPermissions.replace({
      guildId: w.guildId,
      applicationId: APP,
      commandId: COMMAND,
      commandName: 'ping',
      commandVersion: '10',
      permissions: [{ id: w.locked.id, type: CommandPermissionType.CHANNEL, permission: false }],
    });
    expect(await decisions(w.locked.id, COMMAND)).toEqual({ allowed: false, reason: 'channel' });
    expect(await decisions(w.thread.id, COMMAND)).toEqual({ allowed: false, reason: 'channel' });
    expect(await decisions(w.general.id, COMMAND)).toEqual({
      allowed: true,
      reason: 'no_default_member_permissions',
    });
    // Entries written for an older name no longer count.
    registry.put(APP, {
      id: COMMAND,
      name: 'pong',
      version: '11',
      namedVersion: '11',
      defaultMemberPermissions: null,
    });
    expect(await decisions(w.locked.id, COMMAND)).toEqual({
      allowed: true,
      reason: 'no_default_member_permissions',
    });
    // A user who is not a member: no member, nothing held, no use.
    const stranger = await describeIn({ channel_id: w.general.id, user_id: STRANGER });
    expect(stranger).toMatchObject({
      member_json: '',
      user_permissions: '0',
      allowed: false,
      reason: 'not_member',
    });
    // No command: nothing to decide.
    expect(await describeIn({ channel_id: w.general.id, command: undefined })).toMatchObject({
      allowed: true,
      reason: '',
    });
  });

  it('resolves the members, roles and channels named, omitting ids that do not resolve here', async () => {
    const answer = await describeIn({
      channel_id: w.general.id,
      resolve_user_ids: [TARGET, STRANGER, MEMBER, TARGET],
      resolve_role_ids: [w.muted.id, UNKNOWN, w.otherGuild.id],
      resolve_channel_ids: [w.locked.id, w.thread.id, w.foreign.id, UNKNOWN],
    });
    const members = JSON.parse(answer.resolved_members_json);
    expect(Object.keys(members).sort()).toEqual([MEMBER, TARGET]);
    expect(members[TARGET]).toEqual({
      nick: null,
      avatar: null,
      banner: null,
      roles: [w.muted.id],
      joined_at: expect.any(String),
      premium_since: null,
      flags: 0,
      pending: false,
      communication_disabled_until: null,
      permissions: (DEFAULT_EVERYONE_PERMISSIONS & ~P.ADD_REACTIONS).toString(),
    });
    expect(members[MEMBER].permissions).toBe(answer.user_permissions);

    const roles = JSON.parse(answer.resolved_roles_json);
    expect(Object.keys(roles)).toEqual([w.muted.id]);
    expect(roles[w.muted.id]).toMatchObject({
      id: w.muted.id,
      name: 'muted',
      permissions: '0',
      managed: false,
    });

    const channels = JSON.parse(answer.resolved_channels_json);
    expect(Object.keys(channels).sort()).toEqual([w.locked.id, w.thread.id].sort());
    const lockedPermissions =
      (DEFAULT_EVERYONE_PERMISSIONS | P.MANAGE_MESSAGES) & ~P.SEND_MESSAGES & ~SENDING_DEPENDENT;
    expect(channels[w.locked.id]).toEqual({
      id: w.locked.id,
      name: 'locked',
      type: 0,
      permissions: lockedPermissions.toString(),
      app_permissions: '0',
      last_message_id: null,
      nsfw: false,
      parent_id: null,
      guild_id: w.guildId,
      flags: 0,
      rate_limit_per_user: 0,
      topic: null,
      position: w.locked.position,
    });
    expect(channels[w.thread.id]).toMatchObject({
      id: w.thread.id,
      type: 11,
      parent_id: w.locked.id,
      thread_metadata: w.thread.thread_metadata,
    });
    expect(channels[w.thread.id]).not.toHaveProperty('owner_id');
    expect(channels[w.thread.id]).not.toHaveProperty('member_count');
  });

  it('answers 404 / 10003 for a channel that is not one of the guild, 10004 for an unknown guild', async () => {
    await expectError(describeIn({ channel_id: UNKNOWN }), 404, 10003);
    await expectError(describeIn({ channel_id: w.foreign.id }), 404, 10003);
    await expectError(describeIn({ channel_id: w.general.id, guild_id: '' }), 404, 10003);
    await expectError(describeIn({ channel_id: w.general.id, guild_id: UNKNOWN }), 404, 10004);
  });

  it("refuses another application's command (10063) and ids that are no snowflakes (50035)", async () => {
    registry.put(USER_APP, {
      id: '5100',
      name: 'mine',
      version: '1',
      namedVersion: '1',
      defaultMemberPermissions: null,
    });
    await expectError(
      describeIn({ channel_id: w.general.id, command: registry.resolve(USER_APP, ['5100'])[0] }),
      404,
      10063,
    );
    const error = await expectError(
      describeIn({ channel_id: w.general.id, resolve_user_ids: [TARGET, 'someone'] }),
      400,
      50035,
    );
    expect(error.errors).toEqual({
      resolve_user_ids: {
        _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "someone" is not snowflake.' }],
      },
    });
    await expectError(describeIn({ channel_id: 'general' }), 400, 50035);
  });
});

describe('DescribeInvocationContext in DMs', () => {
  const openDm = async (userId: string, body: unknown) =>
    (await callUnary(client, client.OpenDmChannel, { user_id: userId, body_json: JSON.stringify(body) }))
      .channel_json;
  const dmIn = (channelId: string, userId = MEMBER) =>
    describeIn({ guild_id: '', channel_id: channelId, user_id: userId, command: undefined });
  const DM_APP = P.ATTACH_FILES | P.EMBED_LINKS | P.MENTION_EVERYONE;

  it("answers the bot DM with its recipients and the bot DM's app permissions", async () => {
    const channel = JSON.parse(await openDm(MEMBER, { recipient_id: APP }));
    const answer = await dmIn(channel.id);
    expect(JSON.parse(answer.channel_json)).toEqual(channel);
    expect(answer).toMatchObject({
      guild_json: '',
      member_json: '',
      app_permissions: (DM_APP | P.USE_EXTERNAL_EMOJIS).toString(),
      bot_is_member: true,
      allowed: true,
      reason: '',
      recipient_ids: [MEMBER, APP],
      resolved_members_json: '{}',
      resolved_roles_json: '{}',
      resolved_channels_json: '{}',
    });
    expect(answer.app_permissions).toBe('442368');
    const userPermissions = BigInt(answer.user_permissions);
    for (const bit of [P.VIEW_CHANNEL, P.SEND_MESSAGES, P.USE_APPLICATION_COMMANDS, P.ATTACH_FILES])
      expect(userPermissions & bit).toBe(bit);
    expect(userPermissions & (P.ADMINISTRATOR | P.MANAGE_MESSAGES | P.MANAGE_GUILD)).toBe(0n);
  });

  it('answers a DM between users and a group DM with the (G)DM app permissions', async () => {
    const dm = JSON.parse(await openDm(MEMBER, { recipient_id: TARGET }));
    expect(await dmIn(dm.id, TARGET)).toMatchObject({
      app_permissions: DM_APP.toString(),
      bot_is_member: false,
      recipient_ids: [MEMBER, TARGET],
    });
    // A group DM the bot is in is no bot DM.
    const group = JSON.parse(await openDm(MEMBER, { recipients: [TARGET, APP] }));
    const answer = await dmIn(group.id);
    expect(JSON.parse(answer.channel_json)).toEqual({ ...group, owner_id: MEMBER, type: 3 });
    expect(answer).toMatchObject({
      app_permissions: DM_APP.toString(),
      bot_is_member: true,
      recipient_ids: [MEMBER, TARGET, APP],
    });
  });

  it('answers 404 / 10003 for a DM the user is not in, an unknown one, and a DM asked as a guild channel', async () => {
    const dm = JSON.parse(await openDm(MEMBER, { recipient_id: TARGET }));
    await expectError(dmIn(dm.id, STRANGER), 404, 10003);
    await expectError(dmIn(UNKNOWN), 404, 10003);
    await expectError(describeIn({ channel_id: dm.id }), 404, 10003);
  });
});
