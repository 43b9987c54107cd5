import { discordErrorOf } from '../support/errors';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

const OWNER = '1000';
const USER = '2000';
const BOT = '3000';
const OTHER_BOT = '3001';

let db: StoreFixture;

beforeAll(async () => {
  db = await createStoreFixture();
});

afterAll(async () => {
  await db?.close();
});

async function newGuild(): Promise<string> {
  const { guild } = await db.guilds.createGuild({ name: 'Event Guild', ownerId: OWNER });
  return guild.id;
}

/** An event's data as a test reads it: any field, read freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EventData = any;

/** The guild's member and role events in the outbox, in the order they were written. */
async function eventsOf(guildId: string): Promise<Array<{ name: string; data: EventData }>> {
  const rows = await db.prisma.outboxEvent.findMany({ orderBy: { seq: 'asc' } });
  return rows
    .map((row) => ({
      name: row.subject.replace(/^acs\./, ''),
      data: (row.payload as { data?: EventData }).data,
    }))
    .filter((e) => e.data?.guild_id === guildId);
}

describe('member and role events, written with the change', () => {
  it('announces a member added, changed (only when it changed) and removed', async () => {
    const guildId = await newGuild();
    const role = await db.guilds.createRole(guildId, { name: 'Mods', permissions: 8192n });
    await db.members.putMember(guildId, USER, {});
    await db.members.putMember(guildId, USER, { nick: 'Nick', roles: [role.id] });
    await db.members.putMember(guildId, USER, { nick: 'Nick' });
    await db.members.putMember(guildId, USER, {});
    await db.guilds.updateRole(guildId, role.id, { name: 'Moderators' });
    await db.members.removeMember(guildId, USER);
    const events = await eventsOf(guildId);
    expect(events.map((e) => e.name)).toEqual([
      'permissions.role.created',
      'permissions.member.added',
      'permissions.member.updated',
      'permissions.role.updated',
      'permissions.member.removed',
    ]);
    expect(events[0]?.data).toMatchObject({
      guild_id: guildId,
      role: { id: role.id, name: 'Mods', permissions: '8192', managed: false },
    });
    expect(events[1]?.data).toMatchObject({
      guild_id: guildId,
      user_id: USER,
      bot: false,
      member: { user: { id: USER }, nick: null, roles: [], joined_at: expect.any(String) },
    });
    expect(events[2]?.data.member).toMatchObject({ nick: 'Nick', roles: [role.id] });
    expect(events[4]?.data).toEqual({ guild_id: guildId, user_id: USER, bot: false });
  });

  it('writes nothing when the change fails', async () => {
    const guildId = await newGuild();
    await discordErrorOf(() => db.members.putMember(guildId, USER, { roles: ['42'] }));
    await discordErrorOf(() => db.members.removeMember(guildId, USER));
    expect(await eventsOf(guildId)).toEqual([]);
  });

  it('marks bots, and announces their managed role created, updated, renamed and deleted', async () => {
    const guildId = await newGuild();
    await db.bots.putBotMember({ guildId, botId: BOT, roleName: 'Demo App', permissions: 2048n });
    await db.bots.putBotMember({ guildId, botId: OTHER_BOT, roleName: 'Other', permissions: 0n });
    await db.members.putMember(guildId, USER, {});
    expect(await db.bots.listGuildBots([guildId, '999'])).toEqual([
      { guildId, applicationIds: [BOT, OTHER_BOT] },
      { guildId: '999', applicationIds: [] },
    ]);
    await db.bots.putBotMember({ guildId, botId: BOT, roleName: 'Demo App', permissions: 8n });
    expect(await db.bots.renameManagedRoles(BOT, 'Renamed')).toBe(1);
    expect(await db.bots.renameManagedRoles(BOT, 'Renamed')).toBe(0);
    await db.bots.putBotMember({ guildId, botId: BOT, roleName: 'Renamed', permissions: 0n });
    await db.bots.removeBotMember(guildId, BOT);
    const events = await eventsOf(guildId);
    expect(events.map((e) => e.name)).toEqual([
      'permissions.role.created',
      'permissions.member.added',
      'permissions.member.added',
      'permissions.member.added',
      'permissions.role.updated',
      'permissions.role.updated',
      'permissions.role.deleted',
      'permissions.member.updated',
      'permissions.member.removed',
    ]);
    const roleId = events[0]?.data.role.id as string;
    expect(events[0]?.data.role).toMatchObject({ name: 'Demo App', managed: true, tags: { bot_id: BOT } });
    expect(events[1]?.data).toMatchObject({ user_id: BOT, bot: true, member: { roles: [roleId] } });
    expect(events[2]?.data).toMatchObject({ user_id: OTHER_BOT, bot: true });
    expect(events[3]?.data).toMatchObject({ user_id: USER, bot: false });
    expect(events[4]?.data.role).toMatchObject({ id: roleId, permissions: '8' });
    expect(events[5]?.data.role).toMatchObject({ id: roleId, name: 'Renamed' });
    expect(events[6]?.data).toEqual({ guild_id: guildId, role_id: roleId });
    expect(events[7]?.data).toMatchObject({ user_id: BOT, member: { roles: [] } });
    expect(events[8]?.data).toEqual({ guild_id: guildId, user_id: BOT, bot: true });
  });

  it('lists members by id, by page and by nick prefix', async () => {
    const guildId = await newGuild();
    await db.members.putMember(guildId, USER, { nick: 'Alpha' });
    await db.members.putMember(guildId, '2001', { nick: 'beta' });
    const page = (input: Partial<Parameters<typeof db.members.listGuildMembers>[0]>) =>
      db.members.listGuildMembers({
        guildId,
        userIds: [],
        after: null,
        limit: 1000,
        nickPrefix: '',
        ...input,
      });
    expect((await page({})).members.map((m) => m.userId)).toEqual([OWNER, USER, '2001']);
    expect((await page({ after: OWNER, limit: 1 })).members.map((m) => m.userId)).toEqual([USER]);
    expect((await page({ nickPrefix: 'BE' })).members.map((m) => m.userId)).toEqual(['2001']);
    const byIds = await page({ userIds: [USER, '9999'] });
    expect(byIds.members.map((m) => m.userId)).toEqual([USER]);
    expect(byIds.notFound).toEqual(['9999']);
    expect(
      (
        await discordErrorOf(() =>
          db.members.listGuildMembers({ guildId: '1', userIds: [], after: null, limit: 1, nickPrefix: '' }),
        )
      ).code,
    ).toBe(10004);
  });
});
