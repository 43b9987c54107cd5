import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createApplication,
  createDemoWorld,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';

/**
 * Every route of the public and admin API, fed malformed input of every kind: bad JSON,
 * bodies of the wrong type, huge and deeply nested bodies, malformed and unknown ids,
 * strange query strings and headers, missing, malformed and foreign credentials. The
 * answer is always a 4xx (or a success) with the API's JSON error body: never a 5xx,
 * never a hang. The route list is checked against the gateway's source, so a new route
 * cannot be left out.
 */

let stack: TestStack;
let world: DemoWorld;
let foreignBotToken: string;

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  foreignBotToken = (await createApplication(stack, { name: 'Foreign App', owner_id: world.user.id }))
    .bot_token;
});

afterAll(async () => {
  await stack?.stop();
});

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Public routes (under /api/v10), as the gateway declares them. */
const PUBLIC_ROUTES: Array<[Method, string]> = [
  ['get', '/applications/:application_id/commands'],
  ['post', '/applications/:application_id/commands'],
  ['put', '/applications/:application_id/commands'],
  ['get', '/applications/:application_id/commands/:command_id'],
  ['patch', '/applications/:application_id/commands/:command_id'],
  ['delete', '/applications/:application_id/commands/:command_id'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands'],
  ['post', '/applications/:application_id/guilds/:guild_id/commands'],
  ['put', '/applications/:application_id/guilds/:guild_id/commands'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands/:command_id'],
  ['patch', '/applications/:application_id/guilds/:guild_id/commands/:command_id'],
  ['delete', '/applications/:application_id/guilds/:guild_id/commands/:command_id'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands/permissions'],
  ['put', '/applications/:application_id/guilds/:guild_id/commands/permissions'],
  ['get', '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions'],
  ['put', '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions'],
  ['get', '/guilds/:guild_id/application-command-index'],
  ['get', '/gateway'],
  ['get', '/gateway/bot'],
  ['post', '/oauth2/token'],
  ['post', '/oauth2/token/revoke'],
  ['get', '/oauth2/@me'],
  ['get', '/oauth2/applications/@me'],
  ['get', '/applications/@me'],
  ['get', '/users/@me'],
  ['get', '/users/@me/guilds'],
  ['get', '/users/@me/connections'],
];

/** Admin routes (under /admin). */
const ADMIN_ROUTES: Array<[Method, string]> = [
  ['post', '/applications'],
  ['patch', '/applications/:application_id'],
  ['post', '/applications/:application_id/bot/reset-token'],
  ['post', '/applications/:application_id/reset-secret'],
  ['post', '/users'],
  ['post', '/users/:user_id/sessions'],
  ['post', '/users/:user_id/connections'],
  ['delete', '/users/:user_id/authorizations/:application_id'],
  ['post', '/guilds'],
  ['post', '/guilds/:guild_id/roles'],
  ['patch', '/guilds/:guild_id/roles/:role_id'],
  ['put', '/guilds/:guild_id/members/:user_id'],
  ['delete', '/guilds/:guild_id/members/:user_id'],
  ['post', '/guilds/:guild_id/channels'],
  ['post', '/oauth2/authorize'],
];

/** How many routes each of the gateway's route files declares (`method: '…', path: …`). */
function declaredRouteCount(): number {
  const folder = join(__dirname, '..', 'services', 'api-gateway', 'src', 'routes');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(folder, file), 'utf8').match(/method: '\w+',\s*path: /g)?.length ?? 0)
    .reduce((a, b) => a + b, 0);
}

it('covers every route the gateway declares', () => {
  // Command routes are declared once for both scopes (global and guild).
  const commandRoutes = PUBLIC_ROUTES.filter(([, path]) =>
    path.includes('/guilds/:guild_id/commands'),
  ).filter(([, path]) => !path.includes('permissions')).length;
  expect(PUBLIC_ROUTES.length + ADMIN_ROUTES.length - commandRoutes).toBe(declaredRouteCount());
});

/** Path ids: malformed, out of range, unknown, and the real ones. */
const BAD_IDS = [
  'abc',
  '-1',
  '1.5',
  '18446744073709551616',
  '0',
  '99999999999999999',
  '%00',
  'x'.repeat(300),
];

function fill(path: string, id: (name: string) => string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => id(name));
}

function realId(name: string): string {
  switch (name) {
    case 'application_id':
      return world.application.id;
    case 'guild_id':
      return world.guild.id;
    case 'user_id':
      return world.user.id;
    case 'role_id':
      return world.role.id;
    default:
      return '99999999999999999';
  }
}

/** Bodies no route accepts as they are. */
function badBodies(): Array<{ what: string; body: string | Buffer; type: string }> {
  const deep = (depth: number) => '{"options":['.repeat(depth) + '{}' + ']}'.repeat(depth);
  return [
    { what: 'malformed JSON', body: '{"name": ', type: 'application/json' },
    { what: 'an array', body: '[]', type: 'application/json' },
    { what: 'a number', body: '123', type: 'application/json' },
    { what: 'a string', body: '"text"', type: 'application/json' },
    { what: 'null', body: 'null', type: 'application/json' },
    { what: 'an empty body', body: '', type: 'application/json' },
    {
      what: 'wrong field types',
      body: '{"name":5,"description":[],"options":{},"type":"x","permissions":7}',
      type: 'application/json',
    },
    {
      what: 'huge numbers',
      body: '{"type":1e400,"name":"a","limit":-1e308,"permissions":[{"id":1e30,"type":1e30,"permission":1}]}',
      type: 'application/json',
    },
    {
      what: 'lone surrogates',
      body: '{"name":"\\ud800","description":"\\udfff x"}',
      type: 'application/json',
    },
    {
      what: 'lone surrogates in otherwise valid fields',
      body: '{"name":"a\\ud800b","username":"u\\udc00","description":"d\\ud800","permissions":"0","type":0,"nick":"\\ud800"}',
      type: 'application/json',
    },
    {
      what: 'prototype keys',
      body: '{"__proto__":{"admin":true},"constructor":{"prototype":{}},"name":"a"}',
      type: 'application/json',
    },
    { what: 'deep nesting', body: deep(2000), type: 'application/json' },
    { what: 'very deep arrays', body: '['.repeat(300_000) + ']'.repeat(300_000), type: 'application/json' },
    {
      what: 'very deep objects',
      body: '{"a":'.repeat(150_000) + '1' + '}'.repeat(150_000),
      type: 'application/json',
    },
    {
      what: 'deep nesting with a lone surrogate',
      body: '['.repeat(200_000) + '"\\ud800"' + ']'.repeat(200_000),
      type: 'application/json',
    },
    { what: 'a 2 MB body', body: Buffer.alloc(2 * 1024 * 1024, 'a'), type: 'application/json' },
    { what: 'text/plain', body: 'name=a', type: 'text/plain' },
    {
      what: 'a form body',
      body: 'name=a&description=b&grant_type[]=x',
      type: 'application/x-www-form-urlencoded',
    },
  ];
}

/** Query strings a client might send by mistake. */
const BAD_QUERIES = [
  '?with_localizations=maybe&with_counts=2&limit=abc',
  '?limit=-1&before=abc&after=-5',
  '?limit=1&limit=2&with_localizations=true&with_localizations=false',
  '?limit[a]=1&channel_id[]=2&locale=xx-XX',
  '?channel_id=abc&after=18446744073709551616',
  `?${'a'.repeat(6000)}=1`,
];

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

async function send(
  method: Method,
  url: string,
  init: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: method.toUpperCase(),
    headers: init.headers,
    body: method === 'get' || method === 'delete' ? undefined : init.body,
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

/** The answer is a client error or success in the API's shape, never a server error. */
function expectWellFormed(answer: Answer, what: string): void {
  const context =
    `${what} → ${answer.status} ${answer.text.slice(0, 300)}` +
    (answer.status >= 500 ? `\n${stack.recentLogs(8)}` : '');
  expect({ context, serverError: answer.status >= 500 }).toEqual({ context, serverError: false });
  if (answer.status === 204) return;
  expect({ context, type: answer.contentType }).toEqual({ context, type: 'application/json' });
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (answer.status >= 400) {
    // The API's error body, or RFC 6749's on the token endpoints.
    const shaped =
      (typeof body.message === 'string' && typeof body.code === 'number') || typeof body.error === 'string';
    expect({ context, shaped }).toEqual({ context, shaped: true });
  }
}

describe.each([
  ['public', '/api/v10', PUBLIC_ROUTES],
  ['admin', '/admin', ADMIN_ROUTES],
] as const)('%s routes', (kind, base, routes) => {
  const auth = (): Record<string, string> =>
    kind === 'admin'
      ? { Authorization: `Admin ${stack.adminToken}` }
      : { Authorization: `Bot ${world.application.botToken}` };

  it.each(routes)(
    '%s %s answers malformed ids, bodies and queries with 4xx JSON errors',
    async (method, path) => {
      for (const bad of BAD_IDS) {
        for (const name of path.match(/:(\w+)/g) ?? []) {
          const url = stack.apiUrl + base + fill(path, (n) => (`:${n}` === name ? bad : realId(n)));
          expectWellFormed(
            await send(method, url, {
              headers: { ...auth(), 'Content-Type': 'application/json' },
              body: '{}',
            }),
            `${method} ${url.slice(0, 200)}`,
          );
        }
      }
      const url = stack.apiUrl + base + fill(path, realId);
      if (method !== 'get' && method !== 'delete') {
        for (const { what, body, type } of badBodies()) {
          expectWellFormed(
            await send(method, url, { headers: { ...auth(), 'Content-Type': type }, body }),
            `${method} ${path} with ${what}`,
          );
        }
      }
      for (const query of BAD_QUERIES) {
        expectWellFormed(
          await send(method, url + query, { headers: auth() }),
          `${method} ${path}${query.slice(0, 80)}`,
        );
      }
    },
  );

  it.each(routes)(
    '%s %s answers missing, malformed and foreign credentials with 4xx JSON errors',
    async (method, path) => {
      const url = stack.apiUrl + base + fill(path, realId);
      const credentials = [
        undefined,
        '',
        'Bot',
        'Bot ',
        'Bearer',
        'Bearer not-a-token',
        'Basic !!!',
        `Bot ${foreignBotToken}`,
        `Bot ${world.application.botToken}x`,
        `Admin ${stack.adminToken}x`,
        `Bot ${'é'.repeat(200)}`,
        'Bot a.b.c.d.e',
        `Bot ${'a'.repeat(8000)}`,
      ];
      for (const credential of credentials) {
        const headers: Record<string, string> = {
          'Content-Type': 'application/json',
          'X-Discord-Locale': 'no-such-locale',
          'Accept-Language': 'zz;q=abc, *;q=-1',
        };
        if (credential !== undefined) headers.Authorization = credential;
        expectWellFormed(
          await send(method, url, { headers, body: '{}' }),
          `${method} ${path} with Authorization ${String(credential).slice(0, 40)}`,
        );
      }
    },
  );
});

describe('the JSON body reader', () => {
  // Its own application: the admin sweep above resets the demo application's token.
  let app: { id: string; bot_token: string };
  beforeAll(async () => {
    app = await createApplication(stack, { name: 'Body Reader App', owner_id: world.user.id });
  });
  const post = (body: string) =>
    send('post', `${stack.apiUrl}/api/v10/applications/${app.id}/commands`, {
      headers: { Authorization: `Bot ${app.bot_token}`, 'Content-Type': 'application/json' },
      body,
    });
  const nested = (depth: number) =>
    `{"name":"nested","description":"d","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

  it('refuses a lone surrogate, which no database can store, as malformed JSON (50109)', async () => {
    const lone = await post('{"name":"surrogate","description":"half a pair: \\ud83d"}');
    expect(lone.status).toBe(400);
    expect(JSON.parse(lone.text)).toEqual({
      code: 50109,
      message: 'The request body contains invalid JSON.',
    });
    const paired = await post('{"name":"surrogate","description":"a whole pair: \\ud83d\\ude00"}');
    expect(paired.status).toBe(201);
    expect(JSON.parse(paired.text).description).toBe('a whole pair: 😀');
  });

  it('refuses bodies nested deeper than 64 levels as malformed JSON (50109)', async () => {
    expect((await post(nested(64))).status).toBe(201);
    const deep = await post(nested(65));
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text)).toMatchObject({ code: 50109 });
    // Brackets inside strings are text, not nesting.
    expect((await post(`{"name":"brackets","description":"${'['.repeat(90)}"}`)).status).toBe(201);
  });
});
