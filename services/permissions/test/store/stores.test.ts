import type { ChannelType } from '../../src/domain/channel-types';
import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';
import { checkPermissions } from '../../src/domain/check-permissions';
import { discordErrorOf } from '../support/errors';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

const OWNER = '1000';
const USER = '2000';
const UNKNOWN_GUILD = '999999';

let db: StoreFixture;

beforeAll(async () => {
  db = await createStoreFixture();
});

afterAll(async () => {
  await db?.close();
});

async function newGuild(): Promise<string> {
  const { guild } = await db.guilds.createGuild({ name: 'Test Guild', ownerId: OWNER });
  return guild.id;
}

describe('GuildStore', () => {
  it('creates a guild with its @everyone role and its owner as member, and reads it back', async () => {
    const created = await db.guilds.createGuild({ name: 'Demo Guild', ownerId: OWNER });
    expect(created.guild).toEqual({
      id: expect.any(String),
      name: 'Demo Guild',
      ownerId: OWNER,
      preferredLocale: 'en-US',
      attachmentSizeLimit: null,
    });
    expect(created.roles).toEqual([
      {
        id: created.guild.id,
        guildId: created.guild.id,
        name: '@everyone',
        permissions: DEFAULT_EVERYONE_PERMISSIONS,
        position: 0,
        botId: null,
      },
    ]);
    expect(await db.guilds.getGuild(created.guild.id)).toEqual(created);
    const owner = await db.prisma.member.findUnique({
      where: { guildId_userId: { guildId: BigInt(created.guild.id), userId: BigInt(OWNER) } },
    });
    expect(owner).not.toBeNull();
  });

  it('answers 10004 for an unknown guild', async () => {
    const error = await discordErrorOf(() => db.guilds.getGuild(UNKNOWN_GUILD));
    expect(error.toBody()).toEqual({ code: 10004, message: 'Unknown Guild' });
    expect(error.httpStatus).toBe(404);
    expect(
      (await discordErrorOf(() => db.guilds.createRole(UNKNOWN_GUILD, { name: 'r', permissions: 0n }))).code,
    ).toBe(10004);
  });

  it('creates roles (position 1 by default) and updates them, @everyone included', async () => {
    const guildId = await newGuild();
    const role = await db.guilds.createRole(guildId, { name: 'mods', permissions: P.MANAGE_GUILD });
    expect(role).toMatchObject({ guildId, name: 'mods', permissions: P.MANAGE_GUILD, position: 1 });
    expect(await db.guilds.createRole(guildId, { name: 'top', permissions: 0n, position: 5 })).toMatchObject({
      position: 5,
    });

    expect(
      await db.guilds.updateRole(guildId, role.id, { name: 'admins', permissions: P.ADMINISTRATOR }),
    ).toMatchObject({
      id: role.id,
      name: 'admins',
      permissions: P.ADMINISTRATOR,
      position: 1,
    });
    expect(await db.guilds.updateRole(guildId, role.id, {})).toMatchObject({ name: 'admins', position: 1 });
    expect(await db.guilds.updateRole(guildId, guildId, { permissions: 0n })).toMatchObject({
      name: '@everyone',
      permissions: 0n,
    });
    const { roles } = await db.guilds.getGuild(guildId);
    expect(roles).toHaveLength(3);
  });

  it('answers 10011 for a role not in the guild, and 10004 for an unknown guild', async () => {
    const guildId = await newGuild();
    const other = await newGuild();
    expect(
      (await discordErrorOf(() => db.guilds.updateRole(guildId, other, { permissions: 0n }))).toBody(),
    ).toEqual({
      code: 10011,
      message: 'Unknown Role',
    });
    expect((await discordErrorOf(() => db.guilds.updateRole(UNKNOWN_GUILD, guildId, {}))).code).toBe(10004);
  });

  it('refuses a 251st role with 30005', async () => {
    const guildId = await newGuild();
    await db.prisma.role.createMany({
      data: Array.from({ length: 249 }, (_, i) => ({
        // Small ids, far from the generated ones.
        id: BigInt(10_000 + i),
        guildId: BigInt(guildId),
        name: `r${i}`,
        permissions: 0n,
        position: 1,
      })),
    });
    const error = await discordErrorOf(() =>
      db.guilds.createRole(guildId, { name: 'one too many', permissions: 0n }),
    );
    expect(error.toBody()).toEqual({ code: 30005, message: 'Maximum number of guild roles reached (250)' });
  });
});

describe('MemberStore', () => {
  it('adds a member (created), then updates it (not created), replacing roles and nick', async () => {
    const guildId = await newGuild();
    const a = await db.guilds.createRole(guildId, { name: 'a', permissions: 0n });
    const b = await db.guilds.createRole(guildId, { name: 'b', permissions: 0n });

    const added = await db.members.putMember(guildId, USER, { roles: [b.id, a.id, guildId] });
    expect(added.created).toBe(true);
    expect(added.member).toMatchObject({ guildId, userId: USER, nick: null, roleIds: [a.id, b.id].sort() });

    const updated = await db.members.putMember(guildId, USER, { nick: 'bob' });
    expect(updated.created).toBe(false);
    expect(updated.member).toMatchObject({ nick: 'bob', roleIds: [a.id, b.id].sort() });
    expect(updated.member.joinedAt).toEqual(added.member.joinedAt);

    const cleared = await db.members.putMember(guildId, USER, { roles: [], nick: null });
    expect(cleared).toMatchObject({ created: false, member: { nick: null, roleIds: [] } });
  });

  it('answers 50035 at roles.<index> for a role of another guild, and changes nothing', async () => {
    const guildId = await newGuild();
    const other = await newGuild();
    const error = await discordErrorOf(() =>
      db.members.putMember(guildId, USER, { roles: [guildId, other] }),
    );
    expect(error.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { roles: { '1': { _errors: [{ code: 'UNKNOWN_ROLE', message: 'Unknown Role' }] } } },
    });
    const member = await db.prisma.member.findUnique({
      where: { guildId_userId: { guildId: BigInt(guildId), userId: BigInt(USER) } },
    });
    expect(member).toBeNull();
  });

  it('removes a member; 10007 for a non-member; the owner cannot be removed', async () => {
    const guildId = await newGuild();
    await db.members.putMember(guildId, USER, {});
    await db.members.removeMember(guildId, USER);
    expect((await discordErrorOf(() => db.members.removeMember(guildId, USER))).toBody()).toEqual({
      code: 10007,
      message: 'Unknown Member',
    });
    const owner = await discordErrorOf(() => db.members.removeMember(guildId, OWNER));
    expect(owner.httpStatus).toBe(403);
    expect(owner.code).toBe(50013);
    expect((await discordErrorOf(() => db.members.removeMember(UNKNOWN_GUILD, USER))).code).toBe(10004);
  });

  it('tells exactly one of two concurrent first PUTs that it created the member', async () => {
    const guildId = await newGuild();
    const results = await Promise.all([
      db.members.putMember(guildId, USER, { nick: 'x' }),
      db.members.putMember(guildId, USER, { nick: 'y' }),
    ]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });
});

describe('BotMemberStore', () => {
  const BOT = '3000';
  const put = (guildId: string, permissions: bigint) =>
    db.bots.putBotMember({ guildId, botId: BOT, roleName: 'Demo App', permissions });
  const managedRoles = (guildId: string) =>
    db.prisma.role.findMany({ where: { guildId: BigInt(guildId), botId: BigInt(BOT) } });
  const botHas = async (guildId: string, bits: bigint) =>
    checkPermissions(await db.contexts.loadPermissionContext(guildId, BOT), bits).allowed;
  const isBotMember = async (guildId: string) =>
    checkPermissions(await db.contexts.loadPermissionContext(guildId, BOT), 0n).isMember;

  it('makes the bot a member holding a managed role with exactly its permissions, once', async () => {
    const guildId = await newGuild();
    const first = await put(guildId, P.MANAGE_ROLES);
    expect(first.created).toBe(true);
    expect(first.role).toEqual({
      id: expect.any(String),
      guildId,
      name: 'Demo App',
      permissions: P.MANAGE_ROLES,
      position: 1,
      botId: BOT,
    });
    expect(first.member).toMatchObject({ guildId, userId: BOT, nick: null, roleIds: [first.role?.id] });
    expect(await botHas(guildId, P.MANAGE_ROLES)).toBe(true);

    const again = await put(guildId, P.MANAGE_ROLES);
    expect(again).toEqual({ ...first, created: false });
    expect(await managedRoles(guildId)).toHaveLength(1);
  });

  it('updates the managed role in place, removes it at 0 and creates a new one after', async () => {
    const guildId = await newGuild();
    const { role } = await put(guildId, P.MANAGE_ROLES);
    await db.prisma.role.update({ where: { id: BigInt(role!.id) }, data: { name: 'renamed' } });

    const updated = await put(guildId, P.KICK_MEMBERS);
    expect(updated.role).toMatchObject({ id: role!.id, name: 'renamed', permissions: P.KICK_MEMBERS });
    expect(await botHas(guildId, P.MANAGE_ROLES)).toBe(false);
    expect(await botHas(guildId, P.KICK_MEMBERS)).toBe(true);

    const zero = await put(guildId, 0n);
    expect(zero).toMatchObject({ created: false, role: null, member: { userId: BOT, roleIds: [] } });
    expect(await managedRoles(guildId)).toEqual([]);
    expect(await botHas(guildId, P.KICK_MEMBERS)).toBe(false);

    const back = await put(guildId, P.MANAGE_ROLES);
    expect(back.role?.id).not.toBe(role!.id);
    expect(back.member.roleIds).toEqual([back.role?.id]);
  });

  it('adds a bot with permissions 0 as a member with no role', async () => {
    const guildId = await newGuild();
    expect(await put(guildId, 0n)).toMatchObject({ created: true, role: null, member: { roleIds: [] } });
    expect(await managedRoles(guildId)).toEqual([]);
    expect(await isBotMember(guildId)).toBe(true);
  });

  it('answers 10004 for an unknown guild', async () => {
    expect((await discordErrorOf(() => put(UNKNOWN_GUILD, P.MANAGE_ROLES))).code).toBe(10004);
  });

  it('removes the member and its managed role, and says false when there was nothing', async () => {
    const guildId = await newGuild();
    const { role } = await put(guildId, P.MANAGE_ROLES);
    expect(await db.bots.removeBotMember(guildId, BOT)).toBe(true);
    expect(await managedRoles(guildId)).toEqual([]);
    expect(await db.prisma.role.findUnique({ where: { id: BigInt(role!.id) } })).toBeNull();
    expect(await isBotMember(guildId)).toBe(false);
    expect(await db.bots.removeBotMember(guildId, BOT)).toBe(false);
    expect(await db.bots.removeBotMember(UNKNOWN_GUILD, BOT)).toBe(false);
  });

  it('takes the managed role along when the bot is removed as a member', async () => {
    const guildId = await newGuild();
    await put(guildId, P.MANAGE_ROLES);
    await db.members.removeMember(guildId, BOT);
    expect(await managedRoles(guildId)).toEqual([]);
  });

  it('keeps the managed role to its bot when members are put', async () => {
    const guildId = await newGuild();
    const { role } = await put(guildId, P.MANAGE_ROLES);
    const error = await discordErrorOf(() => db.members.putMember(guildId, USER, { roles: [role!.id] }));
    expect(error.toBody()).toMatchObject({
      code: 50035,
      errors: { roles: { '0': { _errors: [{ code: 'ROLE_MANAGED' }] } } },
    });
    const other = await db.guilds.createRole(guildId, { name: 'other', permissions: 0n });
    const bot = await db.members.putMember(guildId, BOT, { roles: [other.id] });
    expect(bot.member.roleIds).toEqual([role!.id, other.id].sort());
  });
});

describe('ChannelStore', () => {
  it('creates channels with overwrites, a channel in a category and a thread in a channel', async () => {
    const guildId = await newGuild();
    const role = await db.guilds.createRole(guildId, { name: 'r', permissions: 0n });
    const { channel: category } = await db.channels.createChannel(guildId, {
      name: 'cat',
      type: 4,
      parentId: null,
      overwrites: [],
    });
    const { channel: text, guildOwnerId } = await db.channels.createChannel(guildId, {
      name: 'general',
      type: 0,
      parentId: category.id,
      overwrites: [
        { id: role.id, type: 0, allow: P.SEND_MESSAGES, deny: 0n },
        { id: USER, type: 1, allow: 0n, deny: P.VIEW_CHANNEL },
      ],
    });
    expect(guildOwnerId).toBe(OWNER);
    expect(text).toMatchObject({ guildId, type: 0, name: 'general', parentId: category.id, position: 1 });
    expect(text.overwrites).toEqual(
      [
        { id: role.id, type: 0, allow: P.SEND_MESSAGES, deny: 0n },
        { id: USER, type: 1, allow: 0n, deny: P.VIEW_CHANNEL },
      ].sort((x, y) => (BigInt(x.id) < BigInt(y.id) ? -1 : 1)),
    );
    const { channel: thread } = await db.channels.createChannel(guildId, {
      name: 'thread',
      type: 11,
      parentId: text.id,
      overwrites: [],
    });
    expect(thread).toMatchObject({ type: 11, parentId: text.id, position: 0, overwrites: [] });
  });

  it('checks the parent and role overwrites against the guild', async () => {
    const guildId = await newGuild();
    const other = await newGuild();
    const { channel: foreign } = await db.channels.createChannel(other, {
      name: 'x',
      type: 4,
      parentId: null,
      overwrites: [],
    });
    const error = await discordErrorOf(() =>
      db.channels.createChannel(guildId, {
        name: 'c',
        type: 0,
        parentId: foreign.id,
        overwrites: [{ id: other, type: 0, allow: 0n, deny: 0n }],
      }),
    );
    expect(error.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        parent_id: { _errors: [{ code: 'CHANNEL_PARENT_INVALID', message: 'Unknown Channel' }] },
        permission_overwrites: {
          '0': { id: { _errors: [{ code: 'UNKNOWN_ROLE', message: 'Unknown Role' }] } },
        },
      },
    });
    const unknown = await discordErrorOf(() =>
      db.channels.createChannel(UNKNOWN_GUILD, { name: 'c', type: 0, parentId: null, overwrites: [] }),
    );
    expect(unknown.code).toBe(10004);
  });
});

describe('ChannelStore.listChannels', () => {
  it('lists every channel and thread with its overwrites, by position then id', async () => {
    const guildId = await newGuild();
    const role = await db.guilds.createRole(guildId, { name: 'r', permissions: 0n });
    const create = async (name: string, type: ChannelType, parentId: string | null = null) =>
      (
        await db.channels.createChannel(guildId, {
          name,
          type,
          parentId,
          overwrites:
            type === 0
              ? [
                  { id: USER, type: 1, allow: 0n, deny: P.VIEW_CHANNEL },
                  { id: role.id, type: 0, allow: P.SEND_MESSAGES, deny: 0n },
                ]
              : [],
        })
      ).channel;
    const first = await create('first', 0);
    const second = await create('second', 2);
    const thread = await create('thread', 11, first.id);
    // Two channels at one position (as after a reorder) are told apart by id.
    await db.prisma.channel.update({ where: { id: BigInt(second.id) }, data: { position: 0 } });

    const listed = await db.channels.listChannels(guildId);
    expect(listed).toEqual([first, { ...second, position: 0 }, thread]);
    expect(listed[0]?.overwrites.map((o) => o.id)).toEqual(
      [USER, role.id].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1)),
    );
    expect(await db.channels.listChannels(await newGuild())).toEqual([]);
    expect(await db.channels.listChannels(UNKNOWN_GUILD)).toEqual([]);
  });
});

describe('PermissionContextStore with checkPermissions', () => {
  it('loads owner, @everyone, member roles and channel overwrites, and decides from them', async () => {
    const guildId = await newGuild();
    const managers = await db.guilds.createRole(guildId, {
      name: 'managers',
      permissions: P.MANAGE_GUILD | P.MANAGE_ROLES,
    });
    await db.members.putMember(guildId, USER, { roles: [managers.id] });
    const { channel } = await db.channels.createChannel(guildId, {
      name: 'locked',
      type: 0,
      parentId: null,
      overwrites: [{ id: guildId, type: 0, allow: 0n, deny: P.USE_APPLICATION_COMMANDS }],
    });
    const { channel: thread } = await db.channels.createChannel(guildId, {
      name: 't',
      type: 11,
      parentId: channel.id,
      overwrites: [],
    });

    const context = await db.contexts.loadPermissionContext(guildId, USER);
    expect(context).toEqual({
      guildId,
      ownerId: OWNER,
      everyonePermissions: DEFAULT_EVERYONE_PERMISSIONS,
      member: {
        userId: USER,
        roleIds: [managers.id],
        rolePermissions: [P.MANAGE_GUILD | P.MANAGE_ROLES],
        communicationDisabledUntil: null,
      },
      // The database's clock, which a timeout is compared with.
      now: expect.any(Date),
    });
    expect(checkPermissions(context, P.MANAGE_GUILD).allowed).toBe(true);

    const inChannel = await db.contexts.loadPermissionContext(guildId, USER, channel.id);
    expect(checkPermissions(inChannel, P.USE_APPLICATION_COMMANDS).missing).toBe(P.USE_APPLICATION_COMMANDS);
    const inThread = await db.contexts.loadPermissionContext(guildId, USER, thread.id);
    expect(inThread.channel?.parent?.overwrites).toEqual(channel.overwrites);
    expect(checkPermissions(inThread, P.USE_APPLICATION_COMMANDS).allowed).toBe(false);

    const stranger = await db.contexts.loadPermissionContext(guildId, '31337');
    expect(checkPermissions(stranger, 0n)).toMatchObject({ allowed: false, isMember: false });

    const admins = await db.guilds.createRole(guildId, { name: 'admins', permissions: P.ADMINISTRATOR });
    await db.members.putMember(guildId, USER, { roles: [admins.id] });
    const asAdmin = await db.contexts.loadPermissionContext(guildId, USER, channel.id);
    expect(checkPermissions(asAdmin, P.USE_APPLICATION_COMMANDS).allowed).toBe(true);
  });

  it('answers 10004 for an unknown guild and 10003 for a channel not in the guild', async () => {
    const guildId = await newGuild();
    const other = await newGuild();
    const { channel } = await db.channels.createChannel(other, {
      name: 'x',
      type: 0,
      parentId: null,
      overwrites: [],
    });
    expect((await discordErrorOf(() => db.contexts.loadPermissionContext(UNKNOWN_GUILD, USER))).code).toBe(
      10004,
    );
    expect(
      (await discordErrorOf(() => db.contexts.loadPermissionContext(guildId, USER, channel.id))).toBody(),
    ).toEqual({
      code: 10003,
      message: 'Unknown Channel',
    });
  });
});
