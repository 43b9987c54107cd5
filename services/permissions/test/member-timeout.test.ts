import type { permissions } from '@acs/protos';
import { callUnary } from '@acs/service-kit';
import { PERMISSION_FLAGS as P } from '../src/domain/permission-flags';
import { startTestServer, type TestServer } from './support/start-test-server';
import { errorOf } from './support/errors';
import { createStoreFixture, type StoreFixture } from './support/test-database';

// ModifyMember: a bot's Modify Guild Member and AutoMod's TIMEOUT, and what a running
// timeout leaves of a member's permissions wherever they are computed. Time moves in SQL.

const OWNER = '5000';
const USER = '5001';
const BOT = '5002';
const HIGH = '5003';

let db: StoreFixture;
let server: TestServer;
let client: permissions.PermissionsServiceClient;

beforeAll(async () => {
  db = await createStoreFixture();
  server = await startTestServer(db);
  client = server.client;
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

/** The outbox's member.updated events, oldest first. */
async function memberUpdates(): Promise<Record<string, unknown>[]> {
  const rows = await db.prisma.outboxEvent.findMany({ orderBy: { seq: 'asc' } });
  return rows
    .filter((row) => row.subject.endsWith('member.updated'))
    .map((row) => (row.payload as { data: Record<string, unknown> }).data);
}

async function world() {
  const guild = JSON.parse(
    (
      await callUnary(client, client.CreateGuild, {
        body_json: JSON.stringify({ name: 'Timeouts', owner_id: OWNER }),
      })
    ).guild_json,
  );
  const channel = JSON.parse(
    (
      await callUnary(client, client.CreateChannel, {
        guild_id: guild.id,
        body_json: JSON.stringify({ name: 'chat', type: 0 }),
      })
    ).channel_json,
  );
  const bot = await callUnary(client, client.PutBotMember, {
    guild_id: guild.id,
    application_id: BOT,
    application_name: 'Mod Bot',
    permissions: String(P.MODERATE_MEMBERS | P.MANAGE_NICKNAMES),
  });
  const high = JSON.parse(
    (
      await callUnary(client, client.CreateRole, {
        guild_id: guild.id,
        body_json: JSON.stringify({ name: 'high', permissions: '0', position: 9 }),
      })
    ).role_json,
  );
  await callUnary(client, client.PutMember, { guild_id: guild.id, user_id: USER, body_json: '{}' });
  await callUnary(client, client.PutMember, {
    guild_id: guild.id,
    user_id: HIGH,
    body_json: JSON.stringify({ roles: [high.id] }),
  });
  return { guild, channel, botRole: JSON.parse(bot.role_json) };
}

const modify = (guildId: string, userId: string, body: unknown, actorId = BOT) =>
  callUnary(client, client.ModifyMember, {
    guild_id: guildId,
    user_id: userId,
    actor_id: actorId,
    body_json: typeof body === 'string' ? body : JSON.stringify(body),
  });

it('times a member out: sending refused everywhere until the end passes or the timeout is lifted', async () => {
  const { guild, channel } = await world();
  const sendHere = () =>
    callUnary(client, client.CheckPermissions, {
      guild_id: guild.id,
      user_id: USER,
      channel_id: channel.id,
      permissions: String(P.SEND_MESSAGES),
    });
  const access = async () =>
    BigInt(
      (
        await callUnary(client, client.DescribeChannelAccess, {
          channel_id: channel.id,
          user_id: USER,
          with_member: true,
          role_ids: [],
        })
      ).permissions,
    );
  expect((await sendHere()).allowed).toBe(true);

  const until = new Date(Date.now() + 60 * 60 * 1000);
  const answer = JSON.parse(
    (await modify(guild.id, USER, { communication_disabled_until: until.toISOString() })).member_json,
  );
  expect(answer).toMatchObject({ user: { id: USER }, communication_disabled_until: until.toISOString() });
  expect(await sendHere()).toEqual({ allowed: false, missing: String(P.SEND_MESSAGES), is_member: true });
  expect(await access()).toBe(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
  const listed = JSON.parse(
    (await callUnary(client, client.ListGuildMembers, { guild_id: guild.id, user_ids: [USER], limit: 1 }))
      .members_json,
  );
  expect(listed[0].communication_disabled_until).toBe(until.toISOString());
  expect((await memberUpdates()).at(-1)).toMatchObject({
    guild_id: guild.id,
    user_id: USER,
    member: { communication_disabled_until: until.toISOString() },
  });

  // The end passes (moved in SQL): everything is back, the end is still shown.
  await db.pool.query(
    `UPDATE member SET communication_disabled_until = now() - interval '1 second' WHERE user_id = $1`,
    [USER],
  );
  expect((await sendHere()).allowed).toBe(true);
  expect(await access()).not.toBe(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);

  await modify(guild.id, USER, { communication_disabled_until: until.toISOString() });
  expect((await sendHere()).allowed).toBe(false);
  const lifted = JSON.parse(
    (await modify(guild.id, USER, { communication_disabled_until: null })).member_json,
  );
  expect(lifted.communication_disabled_until).toBeNull();
  expect((await sendHere()).allowed).toBe(true);

  // Lifting again changes nothing: no second event.
  const events = (await memberUpdates()).length;
  await modify(guild.id, USER, { communication_disabled_until: null });
  expect(await memberUpdates()).toHaveLength(events);
});

it('lets AutoMod (no actor) time out, and refuses the owner, higher members and bad bodies', async () => {
  const { guild } = await world();
  const soon = new Date(Date.now() + 60_000).toISOString();
  const automod = JSON.parse(
    (await modify(guild.id, HIGH, { communication_disabled_until: soon }, '')).member_json,
  );
  expect(automod.communication_disabled_until).toBe(soon);

  const refused = async (userId: string, body: unknown, actorId = BOT) =>
    (await errorOf(modify(guild.id, userId, body, actorId))).toBody();
  expect(await refused(OWNER, { communication_disabled_until: soon })).toMatchObject({ code: 50013 });
  expect(await refused(OWNER, { communication_disabled_until: soon }, '')).toMatchObject({ code: 50013 });
  expect(await refused(HIGH, { communication_disabled_until: null })).toMatchObject({ code: 50013 });
  expect(await refused(USER, { roles: [] })).toEqual({
    code: 50013,
    message: 'Missing Permissions: MANAGE_ROLES',
  });
  const tooLate = new Date(Date.now() + 29 * 24 * 60 * 60 * 1000).toISOString();
  expect(await refused(USER, { communication_disabled_until: tooLate })).toMatchObject({
    code: 50035,
    errors: {
      communication_disabled_until: { _errors: [{ code: 'COMMUNICATION_DISABLED_UNTIL_TOO_LATE' }] },
    },
  });
  expect(await refused(USER, { communication_disabled_until: 'x'.repeat(1_000_000) })).toMatchObject({
    code: 50035,
    errors: { communication_disabled_until: { _errors: [{ code: 'DATE_TIME_TYPE_PARSE' }] } },
  });
  expect(await refused(USER, { nick: 'a\u0000' })).toMatchObject({ code: 50035 });
  expect(await refused(USER, '{')).toMatchObject({ code: 50109 });
  expect(await refused('9223372036854775808', {})).toMatchObject({
    code: 50035,
    errors: { user_id: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } },
  });
  expect(await refused('42', {})).toEqual({ code: 10007, message: 'Unknown Member' });
  // A bot that is no member of the guild (another guild's): 50001.
  expect(await refused(USER, {}, '77')).toEqual({ code: 50001, message: 'Missing Access' });
  expect((await errorOf(modify('123', USER, {}))).toBody()).toEqual({
    code: 10004,
    message: 'Unknown Guild',
  });

  const renamed = JSON.parse((await modify(guild.id, USER, { nick: 'Quiet' })).member_json);
  expect(renamed.nick).toBe('Quiet');
});
