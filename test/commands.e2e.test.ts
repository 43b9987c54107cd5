import { DiscordAPIError, REST } from '@discordjs/rest';
import { Routes, type APIApplicationCommand } from 'discord-api-types/v10';
import { expectSchema } from './helpers/openapi-validator';
import { createDemoWorld, startTestStack, type TestStack } from './support';

/**
 * The world the tests here share: the demo app installed in the demo guild, plus a
 * foreign app. A test that lists an app's commands uses an app of its own (`newApp`), so
 * that what it sees does not depend on which other tests ran before it.
 */
let stack: TestStack;
let app: { id: string; botToken: string };
let guildId: string;
let other: { id: string; botToken: string };
let rest: REST;

beforeAll(async () => {
  stack = await startTestStack();
  const world = await createDemoWorld(stack.admin);
  app = { id: world.application.id, botToken: world.application.botToken };
  guildId = world.guild.id;
  const foreign = await stack.admin('POST', '/admin/applications', { name: 'Other App' });
  other = { id: foreign.body.id, botToken: foreign.body.bot_token };
  rest = new REST({ api: `${stack.apiUrl}/api`, version: '10', retries: 0 }).setToken(app.botToken);
});

afterAll(async () => stack?.stop());

/** A raw request to the public API, for the cases a client library would refuse to send. */
async function raw(
  method: string,
  path: string,
  init: { token?: string | null; body?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== null) headers.Authorization = `Bot ${init.token ?? app.botToken}`;
  if (init.body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, { method, headers, body: init.body });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: text ? JSON.parse(text) : null,
  };
}

/** An application of the test's own, with its bot token and a @discordjs/rest client of it. */
async function newApp(name: string): Promise<{ id: string; botToken: string; rest: REST }> {
  const created = await stack.admin('POST', '/admin/applications', { name });
  expect(created.status).toBe(201);
  const botToken = created.body.bot_token as string;
  return {
    id: created.body.id as string,
    botToken,
    rest: new REST({ api: `${stack.apiUrl}/api`, version: '10', retries: 0 }).setToken(botToken),
  };
}

function expectCommand(value: unknown): asserts value is APIApplicationCommand {
  expectSchema('ApplicationCommandResponse', value);
}

describe('global commands through @discordjs/rest', () => {
  /** POST /applications/{app}/commands with the raw body, as the app's bot. */
  const post = (own: { id: string; botToken: string }, body: unknown) =>
    raw('POST', `/applications/${own.id}/commands`, { token: own.botToken, body: JSON.stringify(body) });

  it('creates a command (201) whose body matches ApplicationCommandResponse', async () => {
    const own = await newApp('Creator');
    const response = await post(own, {
      name: 'ping',
      description: 'Replies with pong',
      id: '1',
      version: '2',
      application_id: '3',
    });
    expect(response.status).toBe(201);
    expect(response.contentType).toBe('application/json');
    const created = response.body;
    expectCommand(created);
    expect(created).toMatchObject({
      application_id: own.id,
      name: 'ping',
      type: 1,
      description: 'Replies with pong',
    });
    expect(created.id).toMatch(/^\d{17,19}$/);
    expect(created).not.toHaveProperty('guild_id');
  });

  it('upserts by name: 200, same id, same version when nothing changed', async () => {
    const own = await newApp('Upserter');
    const command = { name: 'ping', description: 'Replies with pong' };
    const created = await post(own, command);
    expect(created.status).toBe(201);
    const again = await post(own, command);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
  });

  it('gets, edits (new version), lists and deletes', async () => {
    const own = await newApp('Editor');
    const created = (await own.rest.post(Routes.applicationCommands(own.id), {
      body: { name: 'ping', description: 'Replies with pong' },
    })) as APIApplicationCommand;
    const got = (await own.rest.get(Routes.applicationCommand(own.id, created.id))) as APIApplicationCommand;
    expect(got).toEqual(created);
    const edited = (await own.rest.patch(Routes.applicationCommand(own.id, created.id), {
      body: { description: 'Replies with pong, quickly' },
    })) as APIApplicationCommand;
    expectCommand(edited);
    expect(edited.id).toBe(created.id);
    expect(edited.version).not.toBe(created.version);
    const listed = (await own.rest.get(Routes.applicationCommands(own.id))) as APIApplicationCommand[];
    listed.forEach(expectCommand);
    expect(listed.map((c) => c.name)).toEqual(['ping']);
    await own.rest.delete(Routes.applicationCommand(own.id, created.id));
    await expect(own.rest.get(Routes.applicationCommand(own.id, created.id))).rejects.toMatchObject({
      status: 404,
      code: 10063,
    });
  });

  it('reports every validation error with its path, as @discordjs/rest flattens it', async () => {
    const error = (await rest
      .post(Routes.applicationCommands(app.id), {
        body: {
          name: 'Bad Name',
          description: '',
          options: [
            { type: 3, name: 'optional', description: 'x' },
            { type: 3, name: 'required', description: 'y', required: true },
          ],
        },
      })
      .catch((e: unknown) => e)) as DiscordAPIError;
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect(error.status).toBe(400);
    expect(error.code).toBe(50035);
    expect(error.message).toContain('name[APPLICATION_COMMAND_INVALID_NAME]');
    expect(error.message).toContain('description[BASE_TYPE_BAD_LENGTH]');
    expect(error.message).toContain('options[1][APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID]');
    expect(error.rawError).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
  });

  it('localizes lists for the requester and returns dictionaries with with_localizations', async () => {
    const own = await newApp('Localizer');
    await own.rest.post(Routes.applicationCommands(own.id), {
      body: { name: 'hello', description: 'Says hello', name_localizations: { fr: 'bonjour' } },
    });
    const fr = await raw('GET', `/applications/${own.id}/commands`, {
      token: own.botToken,
      headers: { 'X-Discord-Locale': 'fr' },
    });
    expect(fr.body[0]).toMatchObject({ name: 'hello', name_localized: 'bonjour' });
    expect(fr.body[0]).not.toHaveProperty('name_localizations');
    const accept = await raw('GET', `/applications/${own.id}/commands`, {
      token: own.botToken,
      headers: { 'Accept-Language': 'de, fr;q=0.5' },
    });
    expect(accept.body[0]).not.toHaveProperty('name_localized');
    const all = (await own.rest.get(Routes.applicationCommands(own.id), {
      query: new URLSearchParams({ with_localizations: 'true' }),
    })) as APIApplicationCommand[];
    expect(all[0]!.name_localizations).toEqual({ fr: 'bonjour' });
    all.forEach(expectCommand);
  });
});

describe('guild commands', () => {
  it('bulk overwrites atomically and keeps ids of unchanged names', async () => {
    const first = (await rest.put(Routes.applicationGuildCommands(app.id, guildId), {
      body: [
        { name: 'alpha', description: 'A' },
        { type: 2, name: 'Inspect User' },
        { type: 3, name: 'Quote Message' },
      ],
    })) as APIApplicationCommand[];
    first.forEach(expectCommand);
    expect(first.map((c) => c.guild_id)).toEqual([guildId, guildId, guildId]);
    expect(first[1]).toMatchObject({ type: 2, description: '' });

    const bad = await raw('PUT', `/applications/${app.id}/guilds/${guildId}/commands`, {
      body: JSON.stringify([
        { name: 'alpha', description: 'A' },
        { name: 'Nope', description: 'upper case is invalid' },
      ]),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors['1'].name._errors[0].code).toBe('APPLICATION_COMMAND_INVALID_NAME');
    const after = (await rest.get(
      Routes.applicationGuildCommands(app.id, guildId),
    )) as APIApplicationCommand[];
    expect(after.map((c) => c.id).sort()).toEqual(first.map((c) => c.id).sort());

    const second = (await rest.put(Routes.applicationGuildCommands(app.id, guildId), {
      body: [{ name: 'alpha', description: 'A' }],
    })) as APIApplicationCommand[];
    expect(second).toEqual([first[0]]);
  });

  it('refuses guilds where the app is not installed with 403 / 50001', async () => {
    const foreign = new REST({ api: `${stack.apiUrl}/api`, version: '10', retries: 0 }).setToken(
      other.botToken,
    );
    await expect(foreign.get(Routes.applicationGuildCommands(other.id, guildId))).rejects.toMatchObject({
      status: 403,
      code: 50001,
    });
  });
});

describe('bad input on every command route', () => {
  const routes = (): Array<[string, string]> => [
    ['GET', `/applications/${app.id}/commands`],
    ['POST', `/applications/${app.id}/commands`],
    ['PUT', `/applications/${app.id}/commands`],
    ['GET', `/applications/${app.id}/commands/1300000000000000000`],
    ['PATCH', `/applications/${app.id}/commands/1300000000000000000`],
    ['DELETE', `/applications/${app.id}/commands/1300000000000000000`],
    ['GET', `/applications/${app.id}/guilds/${guildId}/commands`],
    ['POST', `/applications/${app.id}/guilds/${guildId}/commands`],
    ['PUT', `/applications/${app.id}/guilds/${guildId}/commands`],
    ['GET', `/applications/${app.id}/guilds/${guildId}/commands/1300000000000000000`],
    ['PATCH', `/applications/${app.id}/guilds/${guildId}/commands/1300000000000000000`],
    ['DELETE', `/applications/${app.id}/guilds/${guildId}/commands/1300000000000000000`],
  ];
  const writes = (): Array<[string, string]> => routes().filter(([m]) => m !== 'GET' && m !== 'DELETE');

  it('answers 401 without a token or with a bad one', async () => {
    for (const [method, path] of routes()) {
      expect(await raw(method, path, { token: null })).toMatchObject({
        status: 401,
        body: { code: 0, message: '401: Unauthorized' },
      });
      expect((await raw(method, path, { token: 'not-a-token' })).status).toBe(401);
    }
  });

  it("answers 403 / 20012 to another app's token", async () => {
    for (const [method, path] of routes()) {
      const response = await raw(method, path, {
        token: other.botToken,
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      });
      expect(response).toMatchObject({ status: 403, body: { code: 20012 } });
    }
  });

  it('answers 50109 to malformed JSON, 413 to a 2 MB body, 50035 to wrong types', async () => {
    for (const [method, path] of writes()) {
      expect(await raw(method, path, { body: '{"name": ' })).toMatchObject({
        status: 400,
        body: { code: 50109 },
      });
      const huge = JSON.stringify({ name: 'x', description: 'y'.repeat(2 * 1024 * 1024) });
      expect((await raw(method, path, { body: huge })).status).toBe(413);
      if (method === 'PATCH') continue; // an unknown command answers 10063 first; see below
      const wrong = await raw(method, path, {
        body: method === 'PUT' ? '{"name": 5}' : '{"name": 5, "description": []}',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe(50035);
    }
    const existing = await rest.post(Routes.applicationCommands(app.id), {
      body: { name: 'typed', description: 'x' },
    });
    const patched = await raw(
      'PATCH',
      `/applications/${app.id}/commands/${(existing as APIApplicationCommand).id}`,
      {
        body: '{"description": 12, "options": "none"}',
      },
    );
    expect(patched.status).toBe(400);
    expect(Object.keys(patched.body.errors).sort()).toEqual(['description', 'options']);
  });

  it('answers 50035 NUMBER_TYPE_COERCE to malformed snowflakes and 10063 to unknown commands', async () => {
    const malformed = await raw('GET', `/applications/${app.id}/commands/abc`);
    expect(malformed).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: {
          command_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "abc" is not snowflake.' }] },
        },
      },
    });
    expect((await raw('GET', `/applications/12x/commands`)).status).toBe(400);
    for (const [method, path] of routes().filter(([, p]) => p.endsWith('1300000000000000000'))) {
      const response = await raw(method, path, {
        body: method === 'PATCH' ? '{"description": "x"}' : undefined,
      });
      expect(response).toMatchObject({
        status: 404,
        body: { code: 10063, message: 'Unknown application command' },
      });
    }
  });

  it('answers 404 and 405 like the real API, always as application/json', async () => {
    const unknown = await raw('GET', '/no/such/route');
    expect(unknown).toEqual({
      status: 404,
      contentType: 'application/json',
      body: { code: 0, message: '404: Not Found' },
    });
    const wrongMethod = await raw('DELETE', `/applications/${app.id}/commands`);
    expect(wrongMethod).toEqual({
      status: 405,
      contentType: 'application/json',
      body: { code: 0, message: '405: Method Not Allowed' },
    });
  });
});

describe('entry point commands', () => {
  it('gives an EMBEDDED app its Launch command, and refuses entry points to other apps', async () => {
    const embedded = await stack.admin('POST', '/admin/applications', {
      name: 'Activity App',
      flags: 1 << 17,
    });
    const client = new REST({ api: `${stack.apiUrl}/api`, version: '10', retries: 0 }).setToken(
      embedded.body.bot_token,
    );
    const listed = (await client.get(
      Routes.applicationCommands(embedded.body.id),
    )) as APIApplicationCommand[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ type: 4, name: 'Launch', handler: 2 });
    listed.forEach(expectCommand);

    const refused = await raw('POST', `/applications/${app.id}/commands`, {
      body: JSON.stringify({ type: 4, name: 'Launch' }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.type._errors[0].code).toBe('APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID');
  });

  it('refuses a bulk overwrite that would delete the entry point with 400 / 50240, changing nothing', async () => {
    const embedded = await stack.admin('POST', '/admin/applications', {
      name: 'Activity Sync',
      flags: 1 << 17,
    });
    const token = embedded.body.bot_token as string;
    const path = `/applications/${embedded.body.id}/commands`;
    const before = await raw('GET', path, { token });
    expect(before.body).toEqual([expect.objectContaining({ type: 4, name: 'Launch' })]);

    // What discord.js `commands.set([...])` sends when the bot lists only its slash commands.
    const refused = await raw('PUT', path, {
      token,
      body: JSON.stringify([{ name: 'ping', description: 'Replies with pong' }]),
    });
    expect(refused).toEqual({
      status: 400,
      contentType: 'application/json',
      body: {
        code: 50240,
        message:
          "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
      },
    });
    expect((await raw('GET', path, { token })).body).toEqual(before.body);

    const kept = await raw('PUT', path, {
      token,
      body: JSON.stringify([
        { name: 'ping', description: 'Replies with pong' },
        { type: 4, name: 'Play', handler: 2 },
      ]),
    });
    expect(kept.status).toBe(200);
    expect(kept.body[1]).toMatchObject({ id: before.body[0].id, type: 4, name: 'Play' });
  });
});

describe('@me in paths', () => {
  it('is served literally and percent-encoded, as discord-api-types encodes Routes.user("@me")', async () => {
    expect(Routes.user('@me')).toBe('/users/%40me');
    const encoded = (await rest.get(Routes.user('@me'))) as { id: string; bot: boolean };
    const literal = (await rest.get(Routes.user())) as { id: string; bot: boolean };
    expect(encoded).toEqual(literal);
    expect(encoded.bot).toBe(true);
    // Every route that names @me takes the encoded form.
    const listed = await fetch(`${stack.apiUrl}/api/v10/applications/%40me`, {
      headers: { Authorization: `Bot ${app.botToken}` },
    });
    expect(listed.status).toBe(200);
  });
});
