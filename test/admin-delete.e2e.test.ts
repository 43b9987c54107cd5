import { GatewayTestClient } from './helpers/gateway-client';
import { api, ChatUser } from './support/chat-user';
import {
  createApplication,
  createDemoWorld,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';

/**
 * Cleaning up through the admin API: DELETE /admin/applications/{id} removes the
 * application with its bot, commands, installations and tokens (the bot leaves its guilds
 * and its sessions end); DELETE /admin/guilds/{id} the guild; DELETE /admin/users/{id} a
 * user with their memberships, tokens and gateway sessions (4004). An absent one is 404
 * with Discord's code, a hostile id 50035.
 */
let stack: TestStack;
let gatewayUrl: string;
const clients: GatewayTestClient[] = [];

beforeAll(async () => {
  // The observer bot identifies twice in a row.
  stack = await startTestStack({ env: { IDENTIFY_CONCURRENCY_WINDOW_MS: '1' } });
  gatewayUrl = `ws://127.0.0.1:${stack.ports.gateway}`;
});

afterAll(async () => {
  for (const client of clients) client.close(1000);
  await stack?.stop();
});

async function botCall(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    method,
    headers: { authorization: `Bot ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** The guild's member count, as another bot (`observerToken`) installed there sees it in the GUILD_CREATE of a new session. */
async function memberCount(observerToken: string, guildId: string): Promise<number> {
  const session = await GatewayTestClient.connect(gatewayUrl);
  clients.push(session);
  await session.identify(observerToken);
  const created = await session.next((p) => p.op === 0 && p.t === 'GUILD_CREATE' && p.d.id === guildId);
  session.close(1000);
  return created.d.member_count as number;
}

describe('DELETE /admin/applications/{application_id}', () => {
  let world: DemoWorld;
  let observer: Awaited<ReturnType<typeof createApplication>>;

  beforeAll(async () => {
    world = await createDemoWorld(stack, { applicationName: 'Doomed App' });
    observer = await createApplication(stack, { name: 'Observer', owner_id: world.user.id });
    await installApplication(stack, {
      applicationId: observer.id,
      userId: world.user.id,
      guildId: world.guild.id,
    });
  });

  it('deletes the app, its commands and installs; its bot leaves the guild and its token dies', async () => {
    const token = world.application.botToken;
    const appId = world.application.id;
    const command = { name: 'ping', description: 'Pings' };
    expect((await botCall('POST', `/applications/${appId}/commands`, token, command)).status).toBe(201);
    expect(
      (await botCall('POST', `/applications/${appId}/guilds/${world.guild.id}/commands`, token, command))
        .status,
    ).toBe(201);
    const bot = await GatewayTestClient.connect(gatewayUrl);
    clients.push(bot);
    await bot.identify(token);
    const user = await ChatUser.open(stack, world.user.id);
    const listed = async () => {
      const index = await api(stack, 'GET', `/guilds/${world.guild.id}/application-command-index`, {
        token: user.token,
      });
      expect(index.status).toBe(200);
      return (index.body.application_commands as { application_id: string }[]).filter(
        (c) => c.application_id === appId,
      );
    };
    expect(await listed()).toHaveLength(2);
    // The owner, the doomed app's bot and the observer's.
    expect(await memberCount(observer.bot_token, world.guild.id)).toBe(3);

    const deleted = await stack.admin('DELETE', `/admin/applications/${appId}`);
    expect(deleted.status).toBe(204);

    // The bot hears its guild go, then its session ends.
    const gone = await bot.dispatch('GUILD_DELETE');
    expect(gone.d).toMatchObject({ id: world.guild.id });
    expect(await listed()).toEqual([]);
    // Nor is it a member any more.
    expect(await memberCount(observer.bot_token, world.guild.id)).toBe(2);
    expect((await botCall('GET', '/applications/@me', token)).status).toBe(401);
    const again = await stack.admin('DELETE', `/admin/applications/${appId}`);
    expect(again).toMatchObject({ status: 404, body: { code: 10002, message: 'Unknown Application' } });
    const patched = await stack.admin('PATCH', `/admin/applications/${appId}`, { name: 'Back' });
    expect(patched).toMatchObject({ status: 404, body: { code: 10002 } });
    // The guild and its members stay: its messages still answer its member.
    const history = await api(stack, 'GET', `/channels/${world.channel.id}/messages`, { token: user.token });
    expect(history.status).toBe(200);
    user.close();
  });

  it('answers an absent application 404 10002 and a hostile id 50035, touching nothing', async () => {
    expect(await stack.admin('DELETE', '/admin/applications/123456789012345678')).toMatchObject({
      status: 404,
      body: { code: 10002 },
    });
    for (const id of ['abc', '99999999999999999999', '9223372036854775808', '-1', '1%00']) {
      const answer = await stack.admin('DELETE', `/admin/applications/${id}`);
      expect({ id, status: answer.status, code: answer.body?.code }).toEqual({
        id,
        status: 400,
        code: 50035,
      });
    }
    const other = await createDemoWorld(stack, { applicationName: 'Kept App' });
    expect((await botCall('GET', '/applications/@me', other.application.botToken)).status).toBe(200);
    const wrongToken = await fetch(`${stack.apiUrl}/admin/applications/${other.application.id}`, {
      method: 'DELETE',
      headers: { authorization: 'Admin nope' },
    });
    expect(wrongToken.status).toBe(401);
    expect((await botCall('GET', '/applications/@me', other.application.botToken)).status).toBe(200);
  });
});

describe('DELETE /admin/guilds/{guild_id}', () => {
  it('deletes the guild with its channels and members; the bots in it get GUILD_DELETE', async () => {
    const world = await createDemoWorld(stack, { guildName: 'Doomed Guild' });
    const bot = await GatewayTestClient.connect(gatewayUrl);
    clients.push(bot);
    await bot.identify(world.application.botToken);
    await bot.next((p) => p.op === 0 && p.t === 'GUILD_CREATE' && p.d.id === world.guild.id);
    const user = await ChatUser.open(stack, world.user.id);
    const channel = `/channels/${world.channel.id}/messages`;
    expect((await api(stack, 'POST', channel, { token: user.token, body: { content: 'hi' } })).status).toBe(
      200,
    );

    expect((await stack.admin('DELETE', `/admin/guilds/${world.guild.id}`)).status).toBe(204);

    const gone = await bot.next((p) => p.op === 0 && p.t === 'GUILD_DELETE' && p.d.id === world.guild.id);
    expect(gone.d.id).toBe(world.guild.id);
    expect(await api(stack, 'POST', channel, { token: user.token, body: { content: 'hi' } })).toMatchObject({
      status: 404,
      body: { code: 10003 },
    });
    expect(await stack.admin('DELETE', `/admin/guilds/${world.guild.id}`)).toMatchObject({
      status: 404,
      body: { code: 10004, message: 'Unknown Guild' },
    });
    expect(
      await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${world.user.id}`, {}),
    ).toMatchObject({
      status: 404,
      body: { code: 10004 },
    });
    // The app and the users stay: the bot still logs in, the owner still gets a session.
    expect((await botCall('GET', '/applications/@me', world.application.botToken)).status).toBe(200);
    expect((await stack.admin('POST', `/admin/users/${world.user.id}/sessions`)).status).toBe(201);
  });

  it('answers an absent guild 404 10004 and a hostile id 50035', async () => {
    expect(await stack.admin('DELETE', '/admin/guilds/123456789012345678')).toMatchObject({
      status: 404,
      body: { code: 10004 },
    });
    for (const id of ['abc', '99999999999999999999', '9223372036854775808', '-1']) {
      const answer = await stack.admin('DELETE', `/admin/guilds/${id}`);
      expect({ id, status: answer.status, code: answer.body?.code }).toEqual({
        id,
        status: 400,
        code: 50035,
      });
    }
  });
});

describe('DELETE /admin/users/{user_id}', () => {
  it('deletes the user with their memberships and tokens, and ends their gateway session with 4004', async () => {
    const world = await createDemoWorld(stack, { guildName: 'Users Guild' });
    const doomed = await createUser(stack, { username: 'doomed-user' });
    expect(
      (await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${doomed.id}`, {})).status,
    ).toBe(201);
    // GUILD_MEMBERS is privileged: the app holds GATEWAY_GUILD_MEMBERS_LIMITED (1 << 15), or Identify closes 4014.
    expect(
      (await stack.admin('PATCH', `/admin/applications/${world.application.id}`, { flags: 1 << 15 })).status,
    ).toBe(200);
    const bot = await GatewayTestClient.connect(gatewayUrl);
    clients.push(bot);
    await bot.identify(world.application.botToken, { intents: (1 << 0) | (1 << 1) });
    await bot.next((p) => p.op === 0 && p.t === 'GUILD_CREATE' && p.d.id === world.guild.id);
    const user = await ChatUser.open(stack, doomed.id);
    await user.connect();
    const gateway = user.gateway as GatewayTestClient;
    const history = `/channels/${world.channel.id}/messages`;
    expect((await api(stack, 'GET', history, { token: user.token })).status).toBe(200);

    expect((await stack.admin('DELETE', `/admin/users/${doomed.id}`)).status).toBe(204);

    await expect(gateway.closed).resolves.toMatchObject({ code: 4004 });
    const removed = await bot.next(
      (p) => p.op === 0 && p.t === 'GUILD_MEMBER_REMOVE' && (p.d.user as { id: string }).id === doomed.id,
    );
    expect(removed.d.guild_id).toBe(world.guild.id);
    expect((await api(stack, 'GET', history, { token: user.token })).status).toBe(401);
    expect(await stack.admin('DELETE', `/admin/users/${doomed.id}`)).toMatchObject({
      status: 404,
      body: { code: 10013, message: 'Unknown User' },
    });
    expect(await stack.admin('POST', `/admin/users/${doomed.id}/sessions`)).toMatchObject({
      status: 404,
      body: { code: 10013 },
    });
  });

  it('refuses a bot user, an owner of a guild or an application, touching nothing', async () => {
    const world = await createDemoWorld(stack, { guildName: 'Owned Guild' });
    expect(await stack.admin('DELETE', `/admin/users/${world.application.id}`)).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { user_id: { _errors: [{ code: 'USER_IS_APPLICATION_BOT' }] } } },
    });
    // The demo world's user owns the guild and the application.
    expect(await stack.admin('DELETE', `/admin/users/${world.user.id}`)).toMatchObject({
      status: 400,
      body: { code: 40011 },
    });
    expect((await stack.admin('DELETE', `/admin/guilds/${world.guild.id}`)).status).toBe(204);
    expect(await stack.admin('DELETE', `/admin/users/${world.user.id}`)).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { user_id: { _errors: [{ code: 'USER_OWNS_APPLICATIONS' }] } } },
    });
    expect((await botCall('GET', '/applications/@me', world.application.botToken)).status).toBe(200);
    expect((await stack.admin('POST', `/admin/users/${world.user.id}/sessions`)).status).toBe(201);
    // Once the application is gone, the user may go.
    expect((await stack.admin('DELETE', `/admin/applications/${world.application.id}`)).status).toBe(204);
    expect((await stack.admin('DELETE', `/admin/users/${world.user.id}`)).status).toBe(204);
  });

  it('answers an absent user 404 10013 and a hostile id 50035', async () => {
    expect(await stack.admin('DELETE', '/admin/users/123456789012345678')).toMatchObject({
      status: 404,
      body: { code: 10013 },
    });
    for (const id of ['abc', '99999999999999999999', '9223372036854775808', '-1', '1%00']) {
      const answer = await stack.admin('DELETE', `/admin/users/${id}`);
      expect({ id, status: answer.status, code: answer.body?.code }).toEqual({
        id,
        status: 400,
        code: 50035,
      });
    }
  });
});
