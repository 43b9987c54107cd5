import { createDemoWorld, startTestStack, type TestStack } from './support';

/**
 * The admin API answers bad input the way the public API does: the Discord error body and
 * status, never a 500, never a partial write; and credentials changed through it take
 * effect at once at the edge.
 */
let stack: TestStack;
let world: Awaited<ReturnType<typeof createDemoWorld>>;

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack.admin);
});

afterAll(async () => stack?.stop());

async function rawAdmin(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { Authorization: `Admin ${stack.adminToken}`, 'Content-Type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: text ? JSON.parse(text) : null,
  };
}

const UNKNOWN = '1300000000000000999';

describe('admin API bad input', () => {
  const writeRoutes = (): Array<[string, string]> => [
    ['POST', '/admin/applications'],
    ['PATCH', `/admin/applications/${world.application.id}`],
    ['POST', '/admin/users'],
    ['POST', '/admin/guilds'],
    ['POST', `/admin/guilds/${world.guild.id}/roles`],
    ['PATCH', `/admin/guilds/${world.guild.id}/roles/${world.role.id}`],
    ['PUT', `/admin/guilds/${world.guild.id}/members/${world.user.id}`],
    ['POST', `/admin/guilds/${world.guild.id}/channels`],
    ['POST', '/admin/oauth2/authorize'],
  ];

  it('refuses a missing or wrong admin token with 401', async () => {
    for (const [method, path] of writeRoutes()) {
      expect((await rawAdmin(method, path, '{}', { Authorization: '' })).status).toBe(401);
      expect(
        (await rawAdmin(method, path, '{}', { Authorization: `Admin ${stack.adminToken}x` })).status,
      ).toBe(401);
      expect(
        (await rawAdmin(method, path, '{}', { Authorization: `Bot ${world.application.botToken}` })).status,
      ).toBe(401);
    }
  });

  it('answers malformed JSON with 50109, 2 MB with 413, and wrong types with 50035 — never a 500', async () => {
    for (const [method, path] of writeRoutes()) {
      expect(await rawAdmin(method, path, '{"name": ')).toMatchObject({ status: 400, body: { code: 50109 } });
      expect(
        (await rawAdmin(method, path, JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }))).status,
      ).toBe(413);
      const wrong = await rawAdmin(
        method,
        path,
        JSON.stringify({
          name: 12,
          username: [],
          owner_id: {},
          scope: 5,
          permissions: {},
          roles: 'x',
          type: 'x',
        }),
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe(50035);
      expect(wrong.contentType).toBe('application/json');
      const array = await rawAdmin(method, path, '[]');
      expect(array.status).toBe(400);
    }
  });

  it('answers unknown ids with 404 and the resource code, malformed ids with 50035', async () => {
    expect(await rawAdmin('PATCH', `/admin/applications/${UNKNOWN}`, '{"name":"New"}')).toMatchObject({
      status: 404,
      body: { code: 10002 },
    });
    expect(await rawAdmin('POST', `/admin/applications/${UNKNOWN}/bot/reset-token`)).toMatchObject({
      status: 404,
      body: { code: 10002 },
    });
    expect(await rawAdmin('POST', `/admin/users/${UNKNOWN}/sessions`)).toMatchObject({
      status: 404,
      body: { code: 10013 },
    });
    expect(
      await rawAdmin('POST', `/admin/guilds/${UNKNOWN}/roles`, '{"name":"r","permissions":"0"}'),
    ).toMatchObject({ status: 404, body: { code: 10004 } });
    expect(await rawAdmin('PUT', `/admin/guilds/${world.guild.id}/members/${UNKNOWN}`, '{}')).toMatchObject({
      status: 404,
      body: { code: 10013 },
    });
    const badOwner = await rawAdmin(
      'POST',
      '/admin/guilds',
      JSON.stringify({ name: 'Guild', owner_id: UNKNOWN }),
    );
    expect(badOwner).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { owner_id: { _errors: [{ code: 'UNKNOWN_USER' }] } } },
    });
    const malformed = await rawAdmin('PATCH', '/admin/applications/not-an-id', '{}');
    expect(malformed).toMatchObject({
      status: 400,
      body: { errors: { application_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } } },
    });
  });

  it('writes nothing when a body is refused', async () => {
    const before = await rawAdmin('POST', '/admin/users', JSON.stringify({ username: 'ok-user' }));
    expect(before.status).toBe(201);
    const refused = await rawAdmin(
      'POST',
      '/admin/guilds',
      JSON.stringify({ name: 'x', owner_id: before.body.id }),
    );
    expect(refused.status).toBe(400);
    // The same user can still own a valid guild, and no half-made guild exists for them.
    const made = await rawAdmin(
      'POST',
      '/admin/guilds',
      JSON.stringify({ name: 'Valid Guild', owner_id: before.body.id }),
    );
    expect(made.status).toBe(201);
  });
});

describe('credentials', () => {
  it('a reset bot token stops the old token at once and the new one works', async () => {
    const app = await rawAdmin('POST', '/admin/applications', JSON.stringify({ name: 'Reset Me' }));
    const oldToken: string = app.body.bot_token;
    const list = (token: string) =>
      fetch(`${stack.apiUrl}/api/v10/applications/${app.body.id}/commands`, {
        headers: { Authorization: `Bot ${token}` },
      });
    expect((await list(oldToken)).status).toBe(200); // now cached at the edge
    const reset = await rawAdmin('POST', `/admin/applications/${app.body.id}/bot/reset-token`);
    expect(reset.status).toBe(200);
    expect((await list(oldToken)).status).toBe(401);
    expect((await list(reset.body.token)).status).toBe(200);
  });

  it('bot tokens have the real three-part shape whose first part is the application id', async () => {
    const [first, , secret] = world.application.botToken.split('.');
    expect(Buffer.from(first!, 'base64').toString()).toBe(world.application.id);
    expect(secret!.length).toBeGreaterThanOrEqual(27);
  });
});

describe('concurrency through the whole stack', () => {
  it('20 parallel creates of one name yield one command', async () => {
    const create = () =>
      fetch(`${stack.apiUrl}/api/v10/applications/${world.application.id}/commands`, {
        method: 'POST',
        headers: { Authorization: `Bot ${world.application.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'concurrent', description: 'Created twenty times at once' }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id: string } }));
    const results = await Promise.all(Array.from({ length: 20 }, create));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(19);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  });
});
