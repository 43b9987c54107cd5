import type { permissions } from '@acs/protos';
import { callUnary } from '@acs/service-kit';
import { PERMISSION_FLAGS as P } from '../src/domain/permission-flags';
import { startTestServer, type TestServer } from './support/start-test-server';
import { errorOf } from './support/errors';
import { createStoreFixture, type StoreFixture } from './support/test-database';

const OWNER = '1000';
const USER = '2000';

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

const createGuild = (body: unknown) =>
  callUnary(client, client.CreateGuild, { body_json: JSON.stringify(body) });
const check = (request: permissions.CheckPermissionsRequest) =>
  callUnary(client, client.CheckPermissions, request);

describe('PermissionsService over gRPC', () => {
  it('builds a world and answers permission checks', async () => {
    const guild = JSON.parse((await createGuild({ name: 'Demo Guild', owner_id: OWNER })).guild_json);
    expect(guild).toMatchObject({
      name: 'Demo Guild',
      owner_id: OWNER,
      icon: null,
      features: [],
      roles: [
        { id: guild.id, name: '@everyone', permissions: '1126971605503553', position: 0, managed: false },
      ],
    });

    const fetched = await callUnary(client, client.GetGuild, { guild_id: guild.id });
    expect(fetched.owner_id).toBe(OWNER);
    expect(JSON.parse(fetched.guild_json)).toEqual(guild);

    const role = JSON.parse(
      (
        await callUnary(client, client.CreateRole, {
          guild_id: guild.id,
          body_json: JSON.stringify({ name: 'managers', permissions: String(P.MANAGE_GUILD) }),
        })
      ).role_json,
    );
    expect(role).toMatchObject({ name: 'managers', permissions: '32', position: 1 });

    const added = await callUnary(client, client.PutMember, {
      guild_id: guild.id,
      user_id: USER,
      body_json: '',
    });
    expect(added.created).toBe(true);
    expect(JSON.parse(added.member_json)).toMatchObject({ user: { id: USER }, roles: [], nick: null });

    const before = await check({
      guild_id: guild.id,
      user_id: USER,
      permissions: String(P.MANAGE_GUILD | P.SEND_MESSAGES),
    });
    expect(before).toEqual({ allowed: false, missing: '32', is_member: true });

    const updated = await callUnary(client, client.PutMember, {
      guild_id: guild.id,
      user_id: USER,
      body_json: JSON.stringify({ roles: [role.id], nick: 'Manager' }),
    });
    expect(updated.created).toBe(false);
    expect(JSON.parse(updated.member_json)).toMatchObject({ roles: [role.id], nick: 'Manager' });
    expect(await check({ guild_id: guild.id, user_id: USER, permissions: '32' })).toEqual({
      allowed: true,
      missing: '0',
      is_member: true,
    });

    const channel = JSON.parse(
      (
        await callUnary(client, client.CreateChannel, {
          guild_id: guild.id,
          body_json: JSON.stringify({
            name: 'bots',
            type: 0,
            permission_overwrites: [
              { id: guild.id, type: 0, allow: '0', deny: String(P.USE_APPLICATION_COMMANDS) },
            ],
          }),
        })
      ).channel_json,
    );
    expect(channel).toMatchObject({
      type: 0,
      guild_id: guild.id,
      name: 'bots',
      parent_id: null,
      position: 0,
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: '2147483648' }],
    });
    expect(
      await check({
        guild_id: guild.id,
        user_id: USER,
        permissions: String(P.USE_APPLICATION_COMMANDS),
        channel_id: channel.id,
      }),
    ).toEqual({ allowed: false, missing: '2147483648', is_member: true });
    expect(
      await check({
        guild_id: guild.id,
        user_id: OWNER,
        permissions: String(P.USE_APPLICATION_COMMANDS),
        channel_id: channel.id,
      }),
    ).toEqual({ allowed: true, missing: '0', is_member: true });

    const everyone = JSON.parse(
      (
        await callUnary(client, client.UpdateRole, {
          guild_id: guild.id,
          role_id: guild.id,
          body_json: JSON.stringify({ permissions: String(P.ADMINISTRATOR) }),
        })
      ).role_json,
    );
    expect(everyone).toMatchObject({ id: guild.id, name: '@everyone', permissions: '8' });
    expect(
      await check({
        guild_id: guild.id,
        user_id: USER,
        permissions: String(P.USE_APPLICATION_COMMANDS),
        channel_id: channel.id,
      }),
    ).toMatchObject({ allowed: true });

    expect(await callUnary(client, client.RemoveMember, { guild_id: guild.id, user_id: USER })).toEqual({});
    expect(await check({ guild_id: guild.id, user_id: USER, permissions: '0' })).toEqual({
      allowed: false,
      missing: '0',
      is_member: false,
    });
  });

  it('answers the guild channels with GetGuild when asked, each as CreateChannel answered it', async () => {
    const guild = JSON.parse((await createGuild({ name: 'Channels', owner_id: OWNER })).guild_json);
    const createChannel = async (body: unknown) =>
      JSON.parse(
        (
          await callUnary(client, client.CreateChannel, {
            guild_id: guild.id,
            body_json: JSON.stringify(body),
          })
        ).channel_json,
      );
    const category = await createChannel({ name: 'cat', type: 4 });
    const text = await createChannel({
      name: 'general',
      type: 0,
      parent_id: category.id,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.SEND_MESSAGES) }],
    });
    const voice = await createChannel({ name: 'voice', type: 2 });
    const thread = await createChannel({ name: 'thread', type: 11, parent_id: text.id });

    const withChannels = await callUnary(client, client.GetGuild, {
      guild_id: guild.id,
      with_channels: true,
    });
    expect(JSON.parse(withChannels.guild_json)).toEqual(guild);
    // By position then id: the thread (position 0) sorts after the older category.
    expect(JSON.parse(withChannels.channels_json)).toEqual([category, thread, text, voice]);
    // The owner is the guild's one member; the count follows the members.
    expect(withChannels.member_count).toBe(1);
    await callUnary(client, client.PutMember, { guild_id: guild.id, user_id: '4242', body_json: '' });
    const counted = await callUnary(client, client.GetGuild, { guild_id: guild.id, with_channels: true });
    expect(counted.member_count).toBe(2);

    const without = await callUnary(client, client.GetGuild, { guild_id: guild.id });
    expect(without.channels_json).toBe('');
    expect(without.member_count).toBe(0);
    const unknown = await errorOf(
      callUnary(client, client.GetGuild, { guild_id: '123456789', with_channels: true }),
    );
    expect(unknown.toBody()).toEqual({ code: 10004, message: 'Unknown Guild' });
  });

  it("puts an app's bot in a guild with its managed role, updates it, and takes both away", async () => {
    const BOT = '3000';
    const guild = JSON.parse((await createGuild({ name: 'Bots', owner_id: OWNER })).guild_json);
    const putBot = (permissions: string) =>
      callUnary(client, client.PutBotMember, {
        guild_id: guild.id,
        application_id: BOT,
        application_name: 'Demo App',
        permissions,
      });
    const rolesOf = async () =>
      JSON.parse((await callUnary(client, client.GetGuild, { guild_id: guild.id })).guild_json)
        .roles as Record<string, unknown>[];

    const added = await putBot(String(P.MANAGE_ROLES));
    const role = JSON.parse(added.role_json);
    expect(added.created).toBe(true);
    expect(role).toMatchObject({
      name: 'Demo App',
      permissions: String(P.MANAGE_ROLES),
      position: 1,
      managed: true,
      tags: { bot_id: BOT },
    });
    expect(JSON.parse(added.member_json)).toMatchObject({ user: { id: BOT }, roles: [role.id] });
    expect(await rolesOf()).toContainEqual(role);
    expect(await check({ guild_id: guild.id, user_id: BOT, permissions: String(P.MANAGE_ROLES) })).toEqual({
      allowed: true,
      missing: '0',
      is_member: true,
    });

    const again = await putBot(String(P.MANAGE_ROLES));
    expect({ ...again, created: true }).toEqual(added);
    const updated = JSON.parse((await putBot(String(P.KICK_MEMBERS))).role_json);
    expect(updated).toMatchObject({ id: role.id, permissions: String(P.KICK_MEMBERS), managed: true });

    const zero = await putBot('0');
    expect(zero.role_json).toBe('');
    expect(JSON.parse(zero.member_json)).toMatchObject({ user: { id: BOT }, roles: [] });
    expect((await rolesOf()).map((r) => r.id)).toEqual([guild.id]);

    await putBot(String(P.MANAGE_ROLES));
    const remove = () =>
      callUnary(client, client.RemoveBotMember, { guild_id: guild.id, application_id: BOT });
    expect(await remove()).toEqual({ removed: true });
    expect(await remove()).toEqual({ removed: false });
    expect((await rolesOf()).map((r) => r.id)).toEqual([guild.id]);
    expect(await check({ guild_id: guild.id, user_id: BOT, permissions: '0' })).toMatchObject({
      is_member: false,
    });

    const badRequest = await errorOf(
      callUnary(client, client.PutBotMember, {
        guild_id: guild.id,
        application_id: 'x',
        application_name: '',
        permissions: 'all',
      }),
    );
    expect(badRequest.toBody()).toMatchObject({
      code: 50035,
      errors: { application_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } },
    });
    const unknownGuild = await errorOf(
      callUnary(client, client.PutBotMember, {
        guild_id: '123456789',
        application_id: BOT,
        application_name: 'Demo App',
        permissions: '0',
      }),
    );
    expect(unknownGuild.toBody()).toEqual({ code: 10004, message: 'Unknown Guild' });
  });

  it('carries Discord errors in the status detail', async () => {
    const malformed = await errorOf(callUnary(client, client.CreateGuild, { body_json: '{' }));
    expect(malformed.httpStatus).toBe(400);
    expect(malformed.toBody()).toEqual({ code: 50109, message: 'The request body contains invalid JSON.' });

    const notAnObject = await errorOf(createGuild('x'));
    expect(notAnObject.toBody()).toMatchObject({
      code: 50035,
      errors: { _errors: [{ code: 'MODEL_TYPE_CONVERT' }] },
    });

    const invalid = await errorOf(createGuild({ name: 'x', owner_id: OWNER }));
    expect(invalid.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        name: {
          _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 2 and 100 in length.' }],
        },
      },
    });

    const unknown = await errorOf(callUnary(client, client.GetGuild, { guild_id: '123456789' }));
    expect(unknown.httpStatus).toBe(404);
    expect(unknown.toBody()).toEqual({ code: 10004, message: 'Unknown Guild' });

    const badId = await errorOf(check({ guild_id: 'abc', user_id: USER, permissions: '0' }));
    expect(badId.toBody()).toMatchObject({
      code: 50035,
      errors: { guild_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } },
    });

    const guild = JSON.parse((await createGuild({ name: 'Other', owner_id: OWNER })).guild_json);
    const unknownRole = await errorOf(
      callUnary(client, client.UpdateRole, { guild_id: guild.id, role_id: '42', body_json: '{}' }),
    );
    expect(unknownRole.toBody()).toEqual({ code: 10011, message: 'Unknown Role' });
    const unknownMember = await errorOf(
      callUnary(client, client.RemoveMember, { guild_id: guild.id, user_id: USER }),
    );
    expect(unknownMember.toBody()).toEqual({ code: 10007, message: 'Unknown Member' });
    const unknownChannel = await errorOf(
      check({ guild_id: guild.id, user_id: OWNER, permissions: '0', channel_id: '42' }),
    );
    expect(unknownChannel.toBody()).toEqual({ code: 10003, message: 'Unknown Channel' });
    const owner = await errorOf(
      callUnary(client, client.RemoveMember, { guild_id: guild.id, user_id: OWNER }),
    );
    expect(owner.httpStatus).toBe(403);
    expect(owner.code).toBe(50013);
  });

  it('checks every id and bit set of every RPC itself: 50035, never a database error', async () => {
    const guild = JSON.parse((await createGuild({ name: 'Ids', owner_id: OWNER })).guild_json);
    const tooLarge = ['9223372036854775808', '18446744073709551615'];
    const megabyte = '9'.repeat(1_000_000);
    const invalidAt = async (call: Promise<unknown>, field: string, code: string) => {
      const error = await errorOf(call);
      expect(error.toBody()).toMatchObject({ code: 50035, errors: { [field]: { _errors: [{ code }] } } });
    };
    for (const id of tooLarge) {
      await invalidAt(callUnary(client, client.GetGuild, { guild_id: id }), 'guild_id', 'NUMBER_TYPE_MAX');
      await invalidAt(
        check({ guild_id: guild.id, user_id: id, permissions: '0' }),
        'user_id',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        check({ guild_id: guild.id, user_id: OWNER, permissions: '0', channel_id: id }),
        'channel_id',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        callUnary(client, client.UpdateRole, { guild_id: guild.id, role_id: id, body_json: '{}' }),
        'role_id',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        callUnary(client, client.ListMemberGuilds, { user_id: OWNER, before: id, after: '', limit: 10 }),
        'before',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        callUnary(client, client.ListGuildBots, { guild_ids: [id] }),
        'guild_ids',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        callUnary(client, client.ListGuildMembers, { guild_id: guild.id, user_ids: [id], limit: 1 }),
        'user_ids',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        callUnary(client, client.ListGuildMembers, { guild_id: guild.id, after: id, limit: 1 }),
        'after',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        callUnary(client, client.RenameManagedRoles, { application_id: id, name: 'n' }),
        'application_id',
        'NUMBER_TYPE_MAX',
      );
      await invalidAt(
        callUnary(client, client.FilterUsableCommands, {
          guild_id: guild.id,
          user_id: OWNER,
          channel_id: '',
          commands: [{ application_id: id, command_id: '1', name: 'a', default_member_permissions: '' }],
        }),
        'commands',
        'NUMBER_TYPE_MAX',
      );
    }
    await invalidAt(
      check({ guild_id: guild.id, user_id: OWNER, permissions: megabyte }),
      'permissions',
      'NUMBER_TYPE_MAX',
    );
    await invalidAt(
      callUnary(client, client.FilterUsableCommands, {
        guild_id: guild.id,
        user_id: OWNER,
        channel_id: '',
        commands: [{ application_id: '1', command_id: '1', name: 'a', default_member_permissions: megabyte }],
      }),
      'commands',
      'NUMBER_TYPE_MAX',
    );
    await invalidAt(
      callUnary(client, client.CreateRole, {
        guild_id: guild.id,
        body_json: JSON.stringify({ name: 'r\u0000', permissions: '0' }),
      }),
      'name',
      'STRING_TYPE_NUL_CHARACTER',
    );
    // Nothing was written: the guild still holds only its @everyone role.
    const stored = JSON.parse((await callUnary(client, client.GetGuild, { guild_id: guild.id })).guild_json);
    expect(stored.roles.map((r: { id: string }) => r.id)).toEqual([guild.id]);
  });
});
