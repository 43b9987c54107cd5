import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
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
  ['patch', '/applications/@me'],
  ['get', '/users/@me'],
  ['get', '/users/@me/guilds'],
  ['get', '/users/@me/connections'],
  ['post', '/users/@me/channels'],
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
  const folder = join(__dirname, '..', 'services', 'api-gateway', 'src', 'handlers');
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

/**
 * Every route with an otherwise valid request, one field at a time made hostile: each id
 * (path, query, body, form) as 2^63 and 2^64 − 1, U+0000 in each string field and key, a
 * megabyte of digits in each numeric-string field. Each answer is the 4xx the field
 * deserves (50035 at its path; the OAuth2 body on the token endpoints), and afterwards
 * the database holds exactly what it held before.
 */
describe('ids above 2^63 - 1, U+0000 and megabyte numbers in every field', () => {
  const REDIRECT = 'https://sweep.example/callback';
  const TOO_LARGE_IDS = ['9223372036854775808', '18446744073709551615'];
  const MEGABYTE_OF_NINES = '9'.repeat(1_000_000);
  /** Digits below api-gateway's bound on any string (8192), so that the services judge them. */
  const KILOBYTES_OF_NINES = '9'.repeat(8000);
  const BIT_SET_KEYS = new Set(['permissions', 'default_member_permissions', 'allow', 'deny']);

  let w: DemoWorld;
  let bearer: string;
  let session: string;
  let globalCommandId: string;
  let guildCommandId: string;
  let before: Record<string, string>;

  /** A digest of every row the services keep (outbox: its ids, as the relay marks rows published). */
  async function snapshot(): Promise<Record<string, string>> {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows: tables } = await client.query<{ schema: string; name: string }>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_schema IN ('registry', 'permissions', 'oauth') AND table_type = 'BASE TABLE'
            AND table_name NOT IN ('snowflake_lease', '_prisma_migrations')`,
      );
      const digests: Record<string, string> = {};
      for (const { schema, name } of tables) {
        const row = name === 'outbox' ? 't.id::text' : 'row_to_json(t)::text';
        const { rows } = await client.query<{ digest: string | null; count: string }>(
          `SELECT md5(string_agg(${row}, E'\\n' ORDER BY ${row})) AS digest, count(*)::text AS count
             FROM "${schema}"."${name}" t`,
        );
        digests[`${schema}.${name}`] = `${rows[0]?.count}:${rows[0]?.digest}`;
      }
      return digests;
    } finally {
      await client.end();
    }
  }

  /** Write routes that read no body. */
  const BODILESS_WRITES = [
    'put /applications/:application_id/guilds/:guild_id/commands/permissions',
    'post /applications/:application_id/bot/reset-token',
    'post /applications/:application_id/reset-secret',
    'post /users/:user_id/sessions',
  ];

  const bot = () => `Bot ${w.application.botToken}`;
  const admin = () => `Admin ${stack.adminToken}`;

  interface Template {
    auth: () => string;
    query?: Record<string, string>;
    body?: unknown;
    form?: Record<string, string>;
  }

  const command = (extra: Record<string, unknown> = {}) => ({
    name: 'sweep',
    description: 'Sweeps',
    name_localizations: { fr: 'balayer' },
    description_localizations: { fr: 'Balaie' },
    default_member_permissions: '8',
    options: [
      {
        type: 3,
        name: 'what',
        description: 'What to sweep',
        choices: [{ name: 'Floor', name_localizations: { fr: 'Sol' }, value: 'floor' }],
      },
    ],
    ...extra,
  });

  /** A request that would succeed (or fail for a reason of its own) for every route. */
  function templateOf(method: Method, path: string): Template {
    const key = `${method} ${path}`;
    const guildPath = path.includes('/guilds/:guild_id/commands');
    switch (key) {
      case 'get /applications/:application_id/commands':
      case 'get /applications/:application_id/guilds/:guild_id/commands':
        return { auth: bot, query: { with_localizations: 'true' } };
      case 'post /applications/:application_id/commands':
      case 'post /applications/:application_id/guilds/:guild_id/commands':
      case 'patch /applications/:application_id/commands/:command_id':
      case 'patch /applications/:application_id/guilds/:guild_id/commands/:command_id':
        return { auth: bot, body: command() };
      case 'put /applications/:application_id/commands':
      case 'put /applications/:application_id/guilds/:guild_id/commands':
        return { auth: bot, body: [command({ id: guildPath ? guildCommandId : globalCommandId })] };
      case 'put /applications/:application_id/guilds/:guild_id/commands/:command_id/permissions':
        return {
          auth: () => `Bearer ${bearer}`,
          body: { permissions: [{ id: w.role.id, type: 1, permission: true }] },
        };
      case 'get /guilds/:guild_id/application-command-index':
        return { auth: () => session, query: { channel_id: w.channel.id } };
      case 'get /users/@me/guilds':
        return { auth: bot, query: { before: '9000000000000000000', after: '1', limit: '10' } };
      case 'post /users/@me/channels':
        return { auth: bot, body: { recipient_id: w.user.id } };
      case 'post /oauth2/token':
        return {
          auth: () => '',
          form: {
            grant_type: 'client_credentials',
            scope: 'identify',
            client_id: w.application.id,
            client_secret: w.application.clientSecret,
          },
        };
      case 'post /oauth2/token/revoke':
        return {
          auth: () => '',
          form: {
            token: 'not-a-token',
            token_type_hint: 'access_token',
            client_id: w.application.id,
            client_secret: w.application.clientSecret,
          },
        };
      case 'patch /applications/@me':
        return {
          auth: bot,
          body: {
            description: 'Sweeps',
            tags: ['sweep'],
            install_params: { scopes: ['bot'], permissions: '8' },
            custom_install_url: 'https://sweep.example/install',
          },
        };
      case 'post /applications':
      case 'patch /applications/:application_id':
        return {
          auth: admin,
          body: {
            name: 'Sweep App 2',
            description: 'Sweeps',
            tags: ['sweep'],
            redirect_uris: [REDIRECT],
            owner_id: w.user.id,
            event_webhooks_types: ['APPLICATION_AUTHORIZED'],
          },
        };
      case 'post /users':
        return {
          auth: admin,
          body: { username: 'sweeper', global_name: 'Sweeper', locale: 'fr', email: 's@x.example' },
        };
      case 'post /users/:user_id/connections':
        return { auth: admin, body: { type: 'github', id: 'octocat', name: 'Octocat' } };
      case 'post /guilds':
        return { auth: admin, body: { name: 'Sweep Guild 2', owner_id: w.user.id } };
      case 'post /guilds/:guild_id/roles':
      case 'patch /guilds/:guild_id/roles/:role_id':
        return { auth: admin, body: { name: 'Sweepers', permissions: '1024' } };
      case 'put /guilds/:guild_id/members/:user_id':
        return { auth: admin, body: { roles: [w.role.id], nick: 'sweepy' } };
      case 'post /guilds/:guild_id/channels':
        return {
          auth: admin,
          body: {
            name: 'sweeping',
            type: 0,
            parent_id: w.channel.id,
            permission_overwrites: [{ id: w.role.id, type: 0, allow: '1024', deny: '2048' }],
          },
        };
      case 'post /oauth2/authorize':
        return {
          auth: admin,
          body: {
            client_id: w.application.id,
            user_id: w.user.id,
            scope: 'bot applications.commands',
            guild_id: w.guild.id,
            permissions: '8',
            redirect_uri: REDIRECT,
            state: 'sweep',
          },
        };
      default:
        return { auth: ADMIN_ROUTES.some(([m, p]) => `${m} ${p}` === key) ? admin : bot };
    }
  }

  /** The real id a route's `:name` takes (a command of the route's own scope). */
  function pathId(name: string, routePath: string): string {
    switch (name) {
      case 'application_id':
        return w.application.id;
      case 'guild_id':
        return w.guild.id;
      case 'user_id':
        return w.user.id;
      case 'role_id':
        return w.role.id;
      case 'command_id':
        return routePath.includes('/guilds/') ? guildCommandId : globalCommandId;
      default:
        throw new Error(`no id for :${name}`);
    }
  }

  /** One hostile request and what its answer must be. */
  interface Case {
    what: string;
    path: string;
    query?: Record<string, string>;
    body?: unknown;
    form?: Record<string, string>;
    headers?: Record<string, string>;
    /** The 50035 inner code expected at `at`, or the OAuth2 error expected. */
    expect: { at: (string | number)[]; code: string } | { oauth2: string } | { status: number };
  }

  /** Every leaf of a JSON value with its path. */
  function leaves(value: unknown, path: (string | number)[] = []): Array<[(string | number)[], unknown]> {
    if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...path, i]));
    if (typeof value === 'object' && value !== null) {
      return Object.entries(value).flatMap(([k, item]) => leaves(item, [...path, k]));
    }
    return [[path, value]];
  }

  function replaced(value: unknown, path: (string | number)[], leaf: unknown): unknown {
    if (path.length === 0) return leaf;
    const [head, ...rest] = path;
    if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaced(item, rest, leaf) : item));
    const object = value as Record<string, unknown>;
    return { ...object, [head as string]: replaced(object[head as string], rest, leaf) };
  }

  const isIdLeaf = (path: (string | number)[], value: unknown) => {
    const key = path[path.length - 1];
    const parent = path[path.length - 2];
    return (
      typeof value === 'string' &&
      /^\d+$/.test(value) &&
      (key === 'id' || String(key).endsWith('_id') || parent === 'roles')
    );
  };
  const isBitSetLeaf = (path: (string | number)[], value: unknown) =>
    typeof value === 'string' && BIT_SET_KEYS.has(String(path[path.length - 1]));

  function casesOf(method: Method, routePath: string): Case[] {
    const template = templateOf(method, routePath);
    const params = (routePath.match(/:(\w+)/g) ?? []).map((p) => p.slice(1));
    const filled = fill(routePath, (n) => pathId(n, routePath));
    const cases: Case[] = [];
    const isBatch = routePath.endsWith('/commands/permissions') && method === 'put';
    for (const param of params) {
      for (const id of TOO_LARGE_IDS) {
        cases.push({
          what: `:${param} = ${id}`,
          path: fill(routePath, (n) => (n === param ? id : pathId(n, routePath))),
          query: template.query,
          body: template.body,
          form: template.form,
          expect: isBatch ? { status: 405 } : { at: [param], code: 'NUMBER_TYPE_MAX' },
        });
      }
    }
    for (const [name, value] of Object.entries(template.query ?? {})) {
      const base = { path: filled, body: template.body, form: template.form };
      cases.push({
        ...base,
        what: `?${name} with U+0000`,
        query: { ...template.query, [name]: `${value}\u0000` },
        expect: { at: [name], code: 'STRING_TYPE_NUL_CHARACTER' },
      });
      if (/^\d+$/.test(value) && name !== 'limit') {
        for (const id of TOO_LARGE_IDS) {
          cases.push({
            ...base,
            what: `?${name} = ${id}`,
            query: { ...template.query, [name]: id },
            expect: { at: [name], code: 'NUMBER_TYPE_MAX' },
          });
        }
      }
      if (name === 'limit') {
        cases.push({
          ...base,
          what: '?limit of 8000 digits',
          query: { ...template.query, limit: '9'.repeat(8000) },
          expect: { at: ['limit'], code: 'NUMBER_TYPE_COERCE' },
        });
      }
    }
    if (template.query === undefined && method === 'get') {
      cases.push({
        what: 'a query parameter with U+0000 in its name',
        path: filled,
        query: { 'x\u0000': '1' },
        expect: { at: ['x\u0000'], code: 'STRING_TYPE_NUL_CHARACTER' },
      });
    }
    if (template.body !== undefined) {
      for (const [at, value] of leaves(template.body)) {
        if (typeof value !== 'string') continue;
        const base = { path: filled, query: template.query };
        cases.push({
          ...base,
          what: `${at.join('.')} with U+0000`,
          body: replaced(template.body, at, `${value.slice(0, 1)}\u0000${value.slice(1)}`),
          expect: { at, code: 'STRING_TYPE_NUL_CHARACTER' },
        });
        const isNumeric = isIdLeaf(at, value) || isBitSetLeaf(at, value);
        const numbers = [
          ...(isIdLeaf(at, value) ? TOO_LARGE_IDS : []),
          ...(isNumeric ? [KILOBYTES_OF_NINES] : []),
        ];
        for (const number of numbers) {
          cases.push({
            ...base,
            what: `${at.join('.')} = ${number.slice(0, 24)} (${number.length} digits)`,
            body: replaced(template.body, at, number),
            expect: { at, code: 'NUMBER_TYPE_MAX' },
          });
        }
        if (isNumeric) {
          // The gateway refuses a string longer than any field takes before decoding the body.
          cases.push({
            ...base,
            what: `${at.join('.')} = a megabyte of digits`,
            body: replaced(template.body, at, MEGABYTE_OF_NINES),
            expect: { at, code: 'BASE_TYPE_MAX_LENGTH' },
          });
        }
      }
      // A key holding U+0000, at the top level (of the first item of a list body).
      const inItem = Array.isArray(template.body);
      const object = (inItem ? (template.body as unknown[])[0] : template.body) as Record<string, unknown>;
      const withKey = { ...object, 'k\u0000': 'v' };
      cases.push({
        what: 'a key with U+0000',
        path: filled,
        body: inItem ? [withKey] : withKey,
        expect: { at: inItem ? [0, 'k\u0000'] : ['k\u0000'], code: 'STRING_TYPE_NUL_CHARACTER' },
      });
    }
    if (template.form !== undefined) {
      for (const [name, value] of Object.entries(template.form)) {
        cases.push({
          what: `form ${name} with U+0000`,
          path: filled,
          form: { ...template.form, [name]: `${value}\u0000` },
          expect: { oauth2: 'invalid_request' },
        });
      }
      for (const id of [...TOO_LARGE_IDS, MEGABYTE_OF_NINES]) {
        cases.push({
          what: `form client_id = ${id.slice(0, 24)} (${id.length} digits)`,
          path: filled,
          form: { ...template.form, client_id: id },
          expect: { oauth2: 'invalid_client' },
        });
      }
      // The same ids through HTTP Basic, the form keeping only what is not a credential.
      const rest = Object.fromEntries(
        Object.entries(template.form).filter(([name]) => name !== 'client_id' && name !== 'client_secret'),
      );
      for (const id of TOO_LARGE_IDS) {
        const credentials = Buffer.from(`${id}:${template.form.client_secret ?? ''}`).toString('base64');
        cases.push({
          what: `Basic client_id = ${id}`,
          path: filled,
          form: rest,
          headers: { Authorization: `Basic ${credentials}` },
          expect: { oauth2: 'invalid_client' },
        });
      }
    }
    return cases;
  }

  async function run(method: Method, base: string, testCase: Case, template: Template): Promise<void> {
    const query = testCase.query ? `?${new URLSearchParams(testCase.query).toString()}` : '';
    const url = stack.apiUrl + base + testCase.path + query;
    const headers: Record<string, string> = { ...testCase.headers };
    const auth = template.auth();
    if (auth !== '' && headers.Authorization === undefined) headers.Authorization = auth;
    let body: string | undefined;
    if (testCase.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(testCase.form).toString();
    } else if (testCase.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(testCase.body);
    }
    const answer = await send(method, url, { headers, body });
    const what = `${method} ${base}${testCase.path.slice(0, 120)}: ${testCase.what}`;
    expectWellFormed(answer, what);
    const context = `${what} → ${answer.status} ${answer.text.slice(0, 400)}`;
    const parsed = JSON.parse(answer.text) as Record<string, any>;
    const expected = testCase.expect;
    if ('status' in expected) {
      expect({ context, status: answer.status }).toEqual({ context, status: expected.status });
    } else if ('oauth2' in expected) {
      expect({ context, status: answer.status >= 400 && answer.status < 500, error: parsed.error }).toEqual({
        context,
        status: true,
        error: expected.oauth2,
      });
    } else {
      let node: any = parsed.errors;
      for (const segment of expected.at) node = node?.[String(segment)];
      const codes = ((node?._errors ?? []) as { code: string }[]).map((e) => e.code);
      expect({ context, status: answer.status, code: parsed.code, codes }).toEqual({
        context,
        status: 400,
        code: 50035,
        codes: expect.arrayContaining([expected.code]),
      });
    }
  }

  beforeAll(async () => {
    w = await createDemoWorld(stack, {
      username: 'sweep-owner',
      guildName: 'Sweep Guild',
      applicationName: 'Sweep App',
    });
    expect(
      (await stack.admin('PATCH', `/admin/applications/${w.application.id}`, { redirect_uris: [REDIRECT] }))
        .status,
    ).toBe(200);
    const consent = await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: w.application.id,
      user_id: w.user.id,
      scope: 'identify guilds connections applications.commands.permissions.update',
      redirect_uri: REDIRECT,
    });
    const token = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: consent.body.code,
        redirect_uri: REDIRECT,
        client_id: w.application.id,
        client_secret: w.application.clientSecret,
      }),
    });
    bearer = ((await token.json()) as { access_token: string }).access_token;
    session = (await stack.admin('POST', `/admin/users/${w.user.id}/sessions`)).body.token;
    const create = async (path: string) => {
      const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
        method: 'POST',
        headers: { Authorization: bot(), 'Content-Type': 'application/json' },
        body: JSON.stringify(command()),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    globalCommandId = await create(`/applications/${w.application.id}/commands`);
    guildCommandId = await create(`/applications/${w.application.id}/guilds/${w.guild.id}/commands`);
    before = await snapshot();
  });

  describe.each([
    ['public', '/api/v10', PUBLIC_ROUTES],
    ['admin', '/admin', ADMIN_ROUTES],
  ] as const)('%s routes', (_kind, base, routes) => {
    it.each(routes)('%s %s refuses each hostile field with the answer it deserves', async (method, path) => {
      const template = templateOf(method, path);
      // A write route sweeps its body's fields: a new one needs a template above.
      const bodiless = BODILESS_WRITES.includes(`${method} ${path}`);
      const hasBody = template.body !== undefined || template.form !== undefined;
      expect({ route: `${method} ${path}`, hasBody }).toEqual({
        route: `${method} ${path}`,
        hasBody: method !== 'get' && method !== 'delete' && !bodiless,
      });
      for (const testCase of casesOf(method, path)) await run(method, base, testCase, template);
    });
  });

  it('changed nothing in the database', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
