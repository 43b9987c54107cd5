import { connect } from 'nats';
import { Client } from 'pg';
import { findTestServers } from '@acs/testing';
import { expectSchema } from './helpers/openapi-validator';
import {
  createDemoWorld,
  createGuild,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';

// Application command permissions (permissions v2) through the running stack: the routes'
// successes and errors, the editor's rules, delete and rename removing permissions with
// no window (and the durable consumer removing the rows), and the command picker.

const REDIRECT = 'https://perms.example/callback';
const SCOPE = 'applications.commands.permissions.update';
const MANAGE_CHANNELS = 1n << 4n;
const MANAGE_GUILD = 1n << 5n;
const MANAGE_ROLES = 1n << 28n;
const VIEW_CHANNEL = 1n << 10n;

let stack: TestStack;
let world: DemoWorld;
let appId: string;
let guildId: string;
/** Bearer tokens with the permissions scope: the owner, a manager, a user without MANAGE_ROLES. */
const tokens = { owner: '', manager: '', weak: '', managerWithoutScope: '' };
/** A plain member (the demo role) and their client session token (the picker's caller). */
let plain: { id: string; session: string };
let seniorsRoleId: string;
/** Commands created by the bot: ids by name. */
const commands: Record<string, string> = {};

interface Answer {
  status: number;
  body: any;
}

async function request(method: string, path: string, auth: string | null, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (auth !== null) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const bot = () => `Bot ${world.application.botToken}`;
const bearer = (token: string) => `Bearer ${token}`;
const permissionsPath = (commandId: string) =>
  `/applications/${appId}/guilds/${guildId}/commands/${commandId}/permissions`;
const put = (commandId: string, permissions: unknown[], token = tokens.manager) =>
  request('PUT', permissionsPath(commandId), bearer(token), { permissions });
const get = (commandId: string) => request('GET', permissionsPath(commandId), bot());
const list = () => request('GET', `/applications/${appId}/guilds/${guildId}/commands/permissions`, bot());
const picker = (channelId?: string, session = plain.session) =>
  request(
    'GET',
    `/guilds/${guildId}/application-command-index${channelId ? `?channel_id=${channelId}` : ''}`,
    session,
  );

async function admin(method: string, path: string, body: unknown, status: number): Promise<any> {
  const answer = await stack.admin(method, path, body);
  if (answer.status !== status)
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A member of the demo guild with a role of these permissions (null: the demo role only). */
async function member(username: string, permissions: bigint | null, position = 1): Promise<string> {
  const user = await createUser(stack, { username });
  const roles = [world.role.id];
  if (permissions !== null) {
    const role = await admin(
      'POST',
      `/admin/guilds/${guildId}/roles`,
      { name: username, permissions: String(permissions), position },
      201,
    );
    roles.push(role.id);
  }
  await admin('PUT', `/admin/guilds/${guildId}/members/${user.id}`, { roles }, 201);
  return user.id;
}

/** The authorization_code grant: consent through the admin API, then the token endpoint. */
async function userToken(userId: string, scope = SCOPE): Promise<string> {
  const { code } = await admin(
    'POST',
    '/admin/oauth2/authorize',
    { client_id: appId, user_id: userId, scope, redirect_uri: REDIRECT },
    200,
  );
  const response = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: appId,
      client_secret: world.application.clientSecret,
    }).toString(),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token)
    throw new Error(`token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

async function createCommand(body: Record<string, unknown>, guild = false): Promise<string> {
  const path = guild
    ? `/applications/${appId}/guilds/${guildId}/commands`
    : `/applications/${appId}/commands`;
  const answer = await request('POST', path, bot(), { description: 'A command', ...body });
  expect(answer.status).toBe(201);
  commands[body.name as string] = answer.body.id;
  return answer.body.id as string;
}

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack.admin);
  appId = world.application.id;
  guildId = world.guild.id;
  await admin('PATCH', `/admin/applications/${appId}`, { redirect_uris: [REDIRECT] }, 200);

  const managerId = await member('manager', MANAGE_GUILD | MANAGE_ROLES | MANAGE_CHANNELS, 5);
  const weakId = await member('weak', MANAGE_GUILD, 4);
  plain = { id: await member('plain', null), session: '' };
  plain.session = (await admin('POST', `/admin/users/${plain.id}/sessions`, {}, 201)).token;
  seniorsRoleId = (
    await admin(
      'POST',
      `/admin/guilds/${guildId}/roles`,
      { name: 'seniors', permissions: '0', position: 10 },
      201,
    )
  ).id;

  [tokens.owner, tokens.manager, tokens.weak, tokens.managerWithoutScope] = await Promise.all([
    userToken(world.user.id),
    userToken(managerId),
    userToken(weakId),
    userToken(managerId, 'identify'),
  ]);
  for (const name of ['ban', 'rename-me', 'delete-me', 'lookup']) await createCommand({ name });
  await createCommand({ name: 'secret', default_member_permissions: '0' }, true);
});

afterAll(async () => stack?.stop());

describe('GET and PUT …/commands/{command}/permissions', () => {
  it('lists nothing and answers 404 10066 for a command without overwrites', async () => {
    expect(await list()).toEqual({ status: 200, body: [] });
    expect(await get(commands.ban!)).toEqual({
      status: 404,
      body: { code: 10066, message: 'Unknown application command permissions' },
    });
  });

  it("overwrites a command's permissions (role, user, @everyone, a channel, All Channels) and reads them back", async () => {
    const permissions = [
      { id: world.role.id, type: 1, permission: true },
      { id: plain.id, type: 2, permission: false },
      { id: guildId, type: 1, permission: false },
      { id: world.channel.id, type: 3, permission: true },
      { id: String(BigInt(guildId) - 1n), type: 3, permission: false },
    ];
    const answer = await put(commands.ban!, permissions);
    expect(answer.status).toBe(200);
    expectSchema('CommandPermissionsResponse', answer.body);
    const expected = { id: commands.ban, application_id: appId, guild_id: guildId, permissions };
    expect(answer.body).toEqual(expected);
    const read = await get(commands.ban!);
    expect(read).toEqual({ status: 200, body: expected });
    // A Bearer token with the scope reads too.
    expect((await request('GET', permissionsPath(commands.ban!), bearer(tokens.manager))).body).toEqual(
      expected,
    );
  });

  it("keeps the app-level entry under the application id, listed with the commands' entries", async () => {
    const permissions = [{ id: guildId, type: 1, permission: true }];
    const answer = await put(appId, permissions);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: appId, application_id: appId, guild_id: guildId, permissions });
    const listed = await list();
    expect(listed.status).toBe(200);
    listed.body.forEach((entry: unknown) => expectSchema('CommandPermissionsResponse', entry));
    expect(listed.body.map((e: { id: string }) => e.id).sort()).toEqual([appId, commands.ban].sort());
    expect((await put(appId, [])).body.permissions).toEqual([]);
    expect((await get(appId)).status).toBe(404);
  });

  it('refuses a bot token (20001), a token without the scope (50026), no token (401)', async () => {
    const body = { permissions: [] };
    expect(await request('PUT', permissionsPath(commands.ban!), bot(), body)).toEqual({
      status: 403,
      body: { code: 20001, message: 'Bots cannot use this endpoint' },
    });
    expect(
      await request('PUT', permissionsPath(commands.ban!), bearer(tokens.managerWithoutScope), body),
    ).toEqual({
      status: 403,
      body: { code: 50026, message: `Missing required OAuth2 scope: ${SCOPE}` },
    });
    expect(
      (await request('GET', permissionsPath(commands.ban!), bearer(tokens.managerWithoutScope))).body.code,
    ).toBe(50026);
    expect((await request('PUT', permissionsPath(commands.ban!), null, body)).status).toBe(401);
  });

  it('answers 403 50013 naming what the editor lacks or may not touch', async () => {
    expect(await put(commands.lookup!, [], tokens.weak)).toEqual({
      status: 403,
      body: { code: 50013, message: 'Missing Permissions: MANAGE_ROLES' },
    });
    expect(await put(commands.lookup!, [{ id: seniorsRoleId, type: 1, permission: true }])).toEqual({
      status: 403,
      body: {
        code: 50013,
        message: `Missing Permissions: role ${seniorsRoleId} is not below your highest role`,
      },
    });
    // "0": administrators only; the manager cannot use /secret, so cannot edit it.
    expect(await put(commands.secret!, [])).toEqual({
      status: 403,
      body: {
        code: 50013,
        message:
          'Missing Permissions: you cannot use this command in this guild (default_member_permissions), so you cannot edit its permissions',
      },
    });
    // The owner may.
    expect(
      (await put(commands.lookup!, [{ id: seniorsRoleId, type: 1, permission: true }], tokens.owner)).status,
    ).toBe(200);
    expect((await put(commands.lookup!, [], tokens.owner)).status).toBe(200);
  });

  it('rejects 101 overwrites and ids not in the guild with the index of the entry (400 50035)', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({
      id: String(10n ** 17n + BigInt(i)),
      type: 2,
      permission: true,
    }));
    const tooMany = await put(commands.lookup!, many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      code: 50035,
      errors: { permissions: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } },
    });
    const unknown = await put(commands.lookup!, [
      { id: world.role.id, type: 1, permission: true },
      { id: '123456789012345678', type: 1, permission: true },
      { id: '223456789012345678', type: 2, permission: true },
      { id: '323456789012345678', type: 3, permission: true },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        permissions: {
          '1': { id: { _errors: [{ code: 'UNKNOWN_ROLE' }] } },
          '2': { id: { _errors: [{ code: 'UNKNOWN_USER' }] } },
          '3': { id: { _errors: [{ code: 'UNKNOWN_CHANNEL' }] } },
        },
      },
    });
    expect(Object.keys(unknown.body.errors.permissions)).toEqual(['1', '2', '3']);
    expect((await get(commands.lookup!)).status).toBe(404);
  });

  it('answers 405 to the batch PUT, disabled since permissions v2', async () => {
    expect(
      await request(
        'PUT',
        `/applications/${appId}/guilds/${guildId}/commands/permissions`,
        bearer(tokens.manager),
        [],
      ),
    ).toEqual({
      status: 405,
      body: { code: 0, message: '405: Method Not Allowed' },
    });
  });
});

describe('an app not installed in the guild', () => {
  it("refuses app-level and command permission writes with 403 50001, as the app's command routes, storing nothing", async () => {
    const elsewhere = await createGuild(stack, { name: 'Elsewhere', owner_id: world.user.id });
    const path = (id: string) => `/applications/${appId}/guilds/${elsewhere.id}/commands/${id}/permissions`;
    const body = { permissions: [{ id: elsewhere.id, type: 1, permission: false }] };
    const missingAccess = { status: 403, body: { code: 50001, message: 'Missing Access' } };
    expect(await request('GET', `/applications/${appId}/guilds/${elsewhere.id}/commands`, bot())).toEqual(
      missingAccess,
    );
    expect(await request('PUT', path(appId), bearer(tokens.owner), body)).toEqual(missingAccess);
    expect(await request('PUT', path(commands.ban!), bearer(tokens.owner), body)).toEqual(missingAccess);

    await installApplication(stack, { applicationId: appId, userId: world.user.id, guildId: elsewhere.id });
    const listed = () =>
      request('GET', `/applications/${appId}/guilds/${elsewhere.id}/commands/permissions`, bot());
    expect(await listed()).toEqual({ status: 200, body: [] });
    expect((await request('PUT', path(appId), bearer(tokens.owner), body)).status).toBe(200);
    expect((await listed()).body).toEqual([
      { id: appId, application_id: appId, guild_id: elsewhere.id, ...body },
    ]);
  });
});

describe('deleting or renaming a command deletes its permissions', () => {
  const overwrite = () => [{ id: world.role.id, type: 1, permission: true }];

  /** Runs a query on the stack's database (every service's schema). */
  async function query(text: string, values: unknown[] = []): Promise<any[]> {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** The stored rows of a command (what the durable consumer deletes). */
  async function rowsOf(commandId: string): Promise<number> {
    const rows = await query(
      'SELECT count(*)::int AS n FROM permissions.command_permissions WHERE command_id = $1',
      [commandId],
    );
    return rows[0].n as number;
  }

  /**
   * True once every event command-registry wrote so far is published and permissions'
   * durable consumer (`permissions-command-events`) has acknowledged it: no delete is
   * still on its way.
   */
  async function eventsSettled(): Promise<boolean> {
    const [unpublished] = await query(
      'SELECT count(*)::int AS n FROM registry.outbox WHERE published_at IS NULL',
    );
    if (unpublished.n !== 0) return false;
    const nats = await connect({ servers: (await findTestServers()).natsUrl });
    try {
      const jsm = await nats.jetstreamManager();
      const consumer = await jsm.consumers.info(stack.events.stream, 'permissions-command-events');
      return consumer.num_pending === 0 && consumer.num_ack_pending === 0;
    } finally {
      await nats.close();
    }
  }

  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('not within 10 s');
  }

  it('DELETE: the next GET no longer shows them, and the consumer removes the rows', async () => {
    const id = commands['delete-me']!;
    expect((await put(id, overwrite())).status).toBe(200);
    expect((await request('DELETE', `/applications/${appId}/commands/${id}`, bot())).status).toBe(204);
    expect((await get(id)).body).toEqual({ code: 10066, message: 'Unknown application command permissions' });
    expect((await list()).body.map((e: { id: string }) => e.id)).not.toContain(id);
    await eventually(async () => (await rowsOf(id)) === 0);
  });

  it('PATCH with a new name: the next GET no longer shows them; new ones for the new name stay', async () => {
    const id = commands['rename-me']!;
    expect((await put(id, overwrite())).status).toBe(200);
    const renamed = await request('PATCH', `/applications/${appId}/commands/${id}`, bot(), {
      name: 'renamed',
    });
    expect(renamed.status).toBe(200);
    expect((await get(id)).status).toBe(404);
    expect((await list()).body.map((e: { id: string }) => e.id)).not.toContain(id);
    await eventually(async () => (await rowsOf(id)) === 0);
    // Written for the new name: the rename's event (already consumed, or redelivered) keeps them.
    expect((await put(id, overwrite())).status).toBe(200);
    expect((await get(id)).status).toBe(200);
    // A PATCH that keeps the name keeps them.
    expect(
      (await request('PATCH', `/applications/${appId}/commands/${id}`, bot(), { description: 'Still here' }))
        .status,
    ).toBe(200);
    expect((await get(id)).body.permissions).toEqual(overwrite());
  });

  it('PATCH A → B → A: the next GET shows none, even while the rows are still there', async () => {
    const id = await createCommand({ name: 'flip' });
    // Deleted at the end whatever happens: the picker's tests below list every command.
    try {
      const denyPlain = [{ id: plain.id, type: 2, permission: false }];
      const rename = (name: string) =>
        request('PATCH', `/applications/${appId}/commands/${id}`, bot(), { name });
      const pickerNames = async () =>
        (await picker()).body.application_commands.map((c: { name: string }) => c.name);
      expect((await put(id, denyPlain)).status).toBe(200);
      expect(await pickerNames()).not.toContain('flip');
      const [written] = await query(
        // As text: ids are beyond JavaScript's exact integers.
        'SELECT row_to_json(p)::text AS row FROM permissions.command_permissions p WHERE command_id = $1',
        [id],
      );

      expect((await rename('flop')).status).toBe(200);
      expect((await rename('flip')).status).toBe(200);
      expect(await get(id)).toEqual({
        status: 404,
        body: { code: 10066, message: 'Unknown application command permissions' },
      });
      expect((await list()).body.map((e: { id: string }) => e.id)).not.toContain(id);

      // The consumer may have deleted the rows already, which would hide them anyway: once
      // it is done, put them back as written, as if the renames' events were still on
      // their way. Only the read's own check can hide them now.
      await eventually(eventsSettled);
      expect(await rowsOf(id)).toBe(0);
      await query(
        `INSERT INTO permissions.command_permissions
         SELECT * FROM json_populate_record(null::permissions.command_permissions, $1::json)`,
        [written.row],
      );
      expect((await get(id)).body).toEqual({
        code: 10066,
        message: 'Unknown application command permissions',
      });
      expect((await list()).body.map((e: { id: string }) => e.id)).not.toContain(id);
      expect(await pickerNames()).toContain('flip');
      expect(await rowsOf(id)).toBe(1);

      // Written for the name as it is now: they apply.
      expect((await put(id, denyPlain)).status).toBe(200);
      expect((await get(id)).body.permissions).toEqual(denyPlain);
      expect(await pickerNames()).not.toContain('flip');
    } finally {
      await request('DELETE', `/applications/${appId}/commands/${id}`, bot());
    }
  });
});

describe('GET /guilds/{guild}/application-command-index (the picker)', () => {
  const names = (answer: Answer) =>
    answer.body.application_commands.map((c: { name: string }) => c.name).sort();

  it('shows only what the user may use: "0" hidden from a non-admin until a USER overwrite allows them', async () => {
    const before = await picker();
    expect(before.status).toBe(200);
    expect(before.body.applications).toEqual([
      { id: appId, name: world.application.name, description: '', icon: null, bot_id: appId },
    ]);
    // ban: @everyone denied, the demo role allowed (plain has it) but plain denied as a user.
    expect(names(before)).toEqual(['lookup', 'renamed']);
    // The owner sees everything (administrator).
    const ownerSession = (await admin('POST', `/admin/users/${world.user.id}/sessions`, {}, 201))
      .token as string;
    expect(names(await picker(undefined, ownerSession))).toEqual(['ban', 'lookup', 'renamed', 'secret']);

    expect(
      (await put(commands.secret!, [{ id: plain.id, type: 2, permission: true }], tokens.owner)).status,
    ).toBe(200);
    expect(names(await picker())).toEqual(['lookup', 'renamed', 'secret']);
  });

  it('applies a CHANNEL deny when channel_id is given', async () => {
    const other = await admin('POST', `/admin/guilds/${guildId}/channels`, { name: 'other', type: 0 }, 201);
    expect((await put(commands.lookup!, [{ id: world.channel.id, type: 3, permission: false }])).status).toBe(
      200,
    );
    expect(names(await picker(world.channel.id))).toEqual(['renamed', 'secret']);
    expect(names(await picker(other.id))).toEqual(['lookup', 'renamed', 'secret']);
    expect(names(await picker())).toEqual(['lookup', 'renamed', 'secret']);
    // A channel the user cannot see hides every command (no USE_APPLICATION_COMMANDS there).
    const hidden = await admin(
      'POST',
      `/admin/guilds/${guildId}/channels`,
      {
        name: 'hidden',
        type: 0,
        permission_overwrites: [{ id: guildId, type: 0, deny: String(VIEW_CHANNEL) }],
      },
      201,
    );
    expect(names(await picker(hidden.id))).toEqual([]);
    expect((await picker('12x')).status).toBe(400);
  });

  it('takes a client session or a Bearer token with `guilds`, and tells a non-member nothing (403 50001)', async () => {
    const sessionView = await picker();
    expect(sessionView.status).toBe(200);
    // The same user through a Bearer token with `guilds`: the same view.
    const withGuilds = await picker(undefined, bearer(await userToken(plain.id, 'guilds')));
    expect(withGuilds).toEqual(sessionView);

    // Without `guilds` (an identify-only grant, a client-credentials token): 50026, whatever the guild.
    const missingGuilds = {
      status: 403,
      body: { code: 50026, message: 'Missing required OAuth2 scope: guilds' },
    };
    expect(await picker(undefined, bearer(tokens.managerWithoutScope))).toEqual(missingGuilds);
    const credentials = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: appId,
        client_secret: world.application.clientSecret,
      }).toString(),
    });
    expect(credentials.status).toBe(200);
    const ownerToken = ((await credentials.json()) as { access_token: string }).access_token;
    expect(await picker(undefined, bearer(ownerToken))).toEqual(missingGuilds);
    const unknownGuild = `/guilds/${BigInt(guildId) + 1000n}/application-command-index`;
    expect(await request('GET', unknownGuild, bearer(tokens.managerWithoutScope))).toEqual(missingGuilds);

    // A user who is not a member: 403 50001, through a session or a Bearer token with `guilds`.
    const outsider = await createUser(stack, { username: 'outsider' });
    const outsiderSession = (await admin('POST', `/admin/users/${outsider.id}/sessions`, {}, 201))
      .token as string;
    const missingAccess = { status: 403, body: { code: 50001, message: 'Missing Access' } };
    expect(await picker(undefined, outsiderSession)).toEqual(missingAccess);
    expect(await picker(world.channel.id, outsiderSession)).toEqual(missingAccess);
    expect(await picker(undefined, bearer(await userToken(outsider.id, 'guilds')))).toEqual(missingAccess);
    // An unknown guild stays 404; a bot is refused (20001).
    expect((await request('GET', unknownGuild, outsiderSession)).body).toEqual({
      code: 10004,
      message: 'Unknown Guild',
    });
    expect(await picker(undefined, bot())).toEqual({
      status: 403,
      body: { code: 20001, message: 'Bots cannot use this endpoint' },
    });
  });
});
