import type { permissions } from '@acs/protos';
import { callUnary } from '@acs/service-kit';
import { PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';
import { errorOf } from '../support/errors';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { createStoreFixture, type StoreFixture } from '../support/test-database';

// The channel RPCs over gRPC against PostgreSQL: Get Guild Channels' view, a bot's edits of
// one overwrite with their permission rules, the admin API's channel changes, and the
// `permissions.channel.*` event each change writes in its transaction.

const OWNER = '1000';
const BOT = '2000';
const STRANGER = '3000';

let db: StoreFixture;
let server: TestServer;
let client: permissions.PermissionsServiceClient;
let guildId: string;
let openId: string;
let secretId: string;
let threadId: string;

const json = (value: unknown) => JSON.stringify(value);

async function createChannel(body: Record<string, unknown>): Promise<{ id: string; [key: string]: unknown }> {
  const answer = await callUnary(client, client.CreateChannel, { guild_id: guildId, body_json: json(body) });
  return JSON.parse(answer.channel_json);
}
const list = async (userId: string) =>
  JSON.parse(
    (await callUnary(client, client.ListGuildChannels, { guild_id: guildId, user_id: userId })).channels_json,
  ) as Array<{ name: string; permission_overwrites: unknown }>;
const edit = (channelId: string, overwriteId: string, body: unknown, userId = BOT) =>
  callUnary(client, client.EditChannelPermission, {
    channel_id: channelId,
    overwrite_id: overwriteId,
    user_id: userId,
    body_json: typeof body === 'string' ? body : json(body),
  });
const remove = (channelId: string, overwriteId: string, userId = BOT) =>
  callUnary(client, client.DeleteChannelPermission, {
    channel_id: channelId,
    overwrite_id: overwriteId,
    user_id: userId,
  });
const bodyOf = async (call: Promise<unknown>) => (await errorOf(call)).toBody();

/** The channel events written so far, oldest first: [event type, channel id, channel name]. */
async function channelEvents(): Promise<Array<[string, string, string]>> {
  const rows = await db.prisma.outboxEvent.findMany({
    where: { subject: { startsWith: 'acs.permissions.channel.' } },
    orderBy: { seq: 'asc' },
  });
  return rows.map((row) => {
    const data = (row.payload as { data: { channel: { id: string; name: string } } }).data;
    return [row.subject.slice('acs.permissions.channel.'.length), data.channel.id, data.channel.name];
  });
}

beforeAll(async () => {
  db = await createStoreFixture();
  server = await startTestServer(db);
  client = server.client;
  const guild = await callUnary(client, client.CreateGuild, {
    body_json: json({ name: 'Vault', owner_id: OWNER }),
  });
  guildId = JSON.parse(guild.guild_json).id;
  await callUnary(client, client.PutBotMember, {
    guild_id: guildId,
    application_id: BOT,
    application_name: 'Keeper',
    permissions: (P.VIEW_CHANNEL | P.MANAGE_ROLES | P.SEND_MESSAGES).toString(),
  });
  openId = (await createChannel({ name: 'open', type: 0 })).id;
  secretId = (
    await createChannel({
      name: 'secret',
      type: 0,
      permission_overwrites: [{ id: guildId, type: 0, deny: P.VIEW_CHANNEL.toString() }],
    })
  ).id;
  threadId = (await createChannel({ name: 'talk', type: 11, parent_id: openId })).id;
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

describe('ListGuildChannels', () => {
  it('answers the channels the user may view, without threads; everything to the owner', async () => {
    expect((await list(BOT)).map((c) => c.name)).toEqual(['open']);
    expect((await list(OWNER)).map((c) => c.name)).toEqual(['open', 'secret']);
  });

  it('answers 50001 to a non-member and 10004 for an unknown guild', async () => {
    expect(await bodyOf(list(STRANGER))).toEqual({ code: 50001, message: 'Missing Access' });
    const unknown = callUnary(client, client.ListGuildChannels, { guild_id: '42', user_id: BOT });
    expect(await bodyOf(unknown)).toEqual({ code: 10004, message: 'Unknown Guild' });
  });
});

describe('GetGuild with a viewer', () => {
  it('says which channels and threads the viewer may view', async () => {
    const answer = await callUnary(client, client.GetGuild, {
      guild_id: guildId,
      with_channels: true,
      viewer_id: BOT,
    });
    expect(answer.visible_channel_ids.sort()).toEqual([openId, threadId].sort());
    expect(JSON.parse(answer.channels_json)).toHaveLength(3);
  });
});

describe('EditChannelPermission and DeleteChannelPermission', () => {
  it('sets, replaces and deletes an overwrite, each with a channel.updated event', async () => {
    const before = (await channelEvents()).length;
    await edit(openId, guildId, { type: 0, allow: P.SEND_MESSAGES.toString() });
    await edit(openId, guildId, { type: 0, deny: Number(P.SEND_MESSAGES) });
    expect((await list(BOT))[0]!.permission_overwrites).toEqual([
      { id: guildId, type: 0, allow: '0', deny: P.SEND_MESSAGES.toString() },
    ]);
    await remove(openId, guildId);
    expect((await list(BOT))[0]!.permission_overwrites).toEqual([]);
    expect((await channelEvents()).slice(before)).toEqual([
      ['updated', openId, 'open'],
      ['updated', openId, 'open'],
      ['updated', openId, 'open'],
    ]);
    expect(await bodyOf(remove(openId, guildId))).toEqual({ code: 10009, message: 'Unknown Overwrite' });
  });

  it('refuses what the bot may not do, writing nothing', async () => {
    const before = await channelEvents();
    expect(await bodyOf(edit(openId, guildId, { type: 0, allow: P.BAN_MEMBERS.toString() }))).toEqual({
      code: 50013,
      message: 'Missing Permissions: BAN_MEMBERS',
    });
    expect(await bodyOf(edit(secretId, guildId, { type: 0 }))).toEqual({
      code: 50001,
      message: 'Missing Access',
    });
    expect(await bodyOf(edit(openId, guildId, { type: 0 }, STRANGER))).toEqual({
      code: 50001,
      message: 'Missing Access',
    });
    expect(await bodyOf(edit(openId, '42', { type: 0 }))).toEqual({ code: 10011, message: 'Unknown Role' });
    expect(await bodyOf(edit('42', guildId, { type: 0 }))).toEqual({
      code: 10003,
      message: 'Unknown Channel',
    });
    expect((await bodyOf(edit(threadId, guildId, { type: 0 }))).code).toBe(50024);
    expect((await bodyOf(edit(openId, guildId, '{'))).code).toBe(50109);
    const errors = (await errorOf(edit(openId, guildId, { type: 2, allow: 'x' }))).errors;
    expect(errors).toEqual({
      type: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_CHOICES' })] },
      allow: { _errors: [expect.any(Object)] },
    });
    expect((await bodyOf(edit(openId, '18446744073709551616', { type: 0 }))).code).toBe(50035);
    expect(await channelEvents()).toEqual(before);
  });
});

describe('UpdateChannel and DeleteChannel (admin)', () => {
  it('renames and replaces overwrites (granting the bot the secret channel), then deletes', async () => {
    const updated = await callUnary(client, client.UpdateChannel, {
      channel_id: secretId,
      body_json: json({
        name: 'secret-2',
        permission_overwrites: [
          { id: guildId, type: 0, deny: P.VIEW_CHANNEL.toString() },
          { id: BOT, type: 1, allow: P.VIEW_CHANNEL.toString() },
        ],
      }),
    });
    expect(JSON.parse(updated.channel_json)).toMatchObject({ id: secretId, name: 'secret-2' });
    expect((await list(BOT)).map((c) => c.name)).toEqual(['open', 'secret-2']);

    const bad = await errorOf(
      callUnary(client, client.UpdateChannel, {
        channel_id: secretId,
        body_json: json({ name: '', permission_overwrites: [{ id: '42', type: 0 }] }),
      }),
    );
    expect(bad.code).toBe(50035);
    const unknownRole = await errorOf(
      callUnary(client, client.UpdateChannel, {
        channel_id: secretId,
        body_json: json({ permission_overwrites: [{ id: '42', type: 0 }] }),
      }),
    );
    expect(unknownRole.errors).toEqual({
      permission_overwrites: { 0: { id: { _errors: [expect.objectContaining({ code: 'UNKNOWN_ROLE' })] } } },
    });

    await callUnary(client, client.DeleteChannel, { channel_id: openId });
    expect((await list(OWNER)).map((c) => c.name)).toEqual(['secret-2']);
    expect(await db.prisma.channel.count({ where: { id: BigInt(threadId) } })).toBe(0);
    expect((await channelEvents()).slice(-3)).toEqual([
      ['updated', secretId, 'secret-2'],
      ['deleted', threadId, 'talk'],
      ['deleted', openId, 'open'],
    ]);
    expect(await bodyOf(callUnary(client, client.DeleteChannel, { channel_id: openId }))).toEqual({
      code: 10003,
      message: 'Unknown Channel',
    });
  });

  it("moves a deleted category's channels out of it, each with channel.updated", async () => {
    const category = await createChannel({ name: 'wing', type: 4 });
    const room = await createChannel({ name: 'room', type: 0, parent_id: category.id });
    await callUnary(client, client.DeleteChannel, { channel_id: category.id });
    expect((await channelEvents()).slice(-2)).toEqual([
      ['updated', room.id, 'room'],
      ['deleted', category.id, 'wing'],
    ]);
    const moved = (await list(OWNER)).find((c) => c.name === 'room') as { parent_id?: unknown } | undefined;
    expect(moved?.parent_id).toBeNull();
  });

  it('writes channel.created when a channel is created', async () => {
    const created = await createChannel({ name: 'later', type: 2 });
    expect((await channelEvents()).at(-1)).toEqual(['created', created.id, 'later']);
  });
});
