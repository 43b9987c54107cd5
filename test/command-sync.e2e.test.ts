import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection, type Subscription } from 'nats';
import { findTestServers } from '@acs/testing';
import {
  createApplication,
  createGuild,
  createUser,
  installApplication,
  startTestStack,
  type TestStack,
} from './support';

/**
 * The ACS-only command sync extensions through the public API: `PUT …/commands?dry_run=true`,
 * the X-Command-Creates-* quota headers, X-Command-Sync, and
 * `GET /applications/{app}/guild-command-index`. The stack's create quota window is
 * WINDOW_SECONDS long (COMMAND_CREATES_WINDOW_SECONDS), so that a test sees it reset.
 */
const WINDOW_SECONDS = 10;

let stack: TestStack;
let owner: { id: string };
let nats: NatsConnection;

beforeAll(async () => {
  stack = await startTestStack({ env: { COMMAND_CREATES_WINDOW_SECONDS: String(WINDOW_SECONDS) } });
  owner = await createUser(stack, { username: 'sync-owner' });
  nats = await connect({ servers: (await findTestServers()).natsUrl });
});

afterAll(async () => {
  await nats?.close();
  await stack?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** A request to the public API with a bot token. */
async function call(method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, {
    method,
    headers: {
      Authorization: `Bot ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

let apps = 0;
/** An application of the test's own, installed in `guilds`. */
async function newApp(guilds: string[] = []): Promise<{ id: string; token: string }> {
  apps += 1;
  const app = await createApplication(stack, { name: `Sync App ${apps}` });
  for (const guildId of guilds) {
    await installApplication(stack, { applicationId: app.id, userId: owner.id, guildId });
  }
  return { id: app.id, token: app.bot_token };
}

function quotaOf(answer: Answer): { remaining: number; resetAfter: number } {
  const remaining = answer.headers.get('x-command-creates-remaining');
  const resetAfter = answer.headers.get('x-command-creates-reset-after');
  expect(remaining).toMatch(/^\d+$/);
  expect(resetAfter).toMatch(/^\d+\.\d{3}$/);
  return { remaining: Number(remaining), resetAfter: Number(resetAfter) };
}

/** Waits, if need be, for a quota window with at least `seconds` left, so that the test's steps share one. */
async function freshWindow(path: string, token: string, seconds: number): Promise<void> {
  const { resetAfter } = quotaOf(await call('GET', path, token));
  if (resetAfter < seconds) await new Promise((resolve) => setTimeout(resolve, resetAfter * 1000 + 100));
}

const option = (name: string) => ({ type: 3, name, description: `The ${name}` });

describe('PUT …/commands?dry_run=true', () => {
  it('predicts what the real PUT then does, for every kind of change, and writes nothing', async () => {
    const app = await newApp();
    const path = `/applications/${app.id}/commands`;
    // The quota figures are compared across requests: one window for all of them.
    await freshWindow(path, app.token, 6);
    const seed = await call('PUT', path, app.token, [
      { name: 'old', description: 'Renamed later' },
      { name: 'opts', description: 'Options', options: [option('a'), option('b')] },
      { name: 'greet', description: 'Hello' },
      { name: 'flip', description: 'Becomes a USER command' },
      { name: 'keep', description: 'Stays' },
      { name: 'gone', description: 'Deleted' },
    ]);
    expect(seed.status).toBe(200);
    expect(seed.headers.get('x-command-sync')).toBe('changed');
    const before = seed.body as Array<{ id: string; name: string; version: string }>;
    const idOf = (name: string) => before.find((c) => c.name === name)?.id;
    const next = [
      { id: idOf('old'), name: 'new', description: 'Renamed later' },
      { name: 'opts', description: 'Options', options: [option('b'), option('a')] },
      { name: 'greet', description: 'Hello', description_localizations: { fr: 'Bonjour' } },
      { type: 2, name: 'flip' },
      { name: 'keep', description: 'Stays' },
      { name: 'fresh', description: 'New' },
    ];

    const dry = await call('PUT', `${path}?dry_run=true`, app.token, next);
    expect(dry.status).toBe(200);
    expect(dry.headers.get('x-command-sync')).toBe('changed');
    expect(dry.body).toEqual({
      created: [
        { name: 'flip', type: 2 },
        { name: 'fresh', type: 1 },
      ],
      updated: [
        { id: idOf('old'), name: 'new', type: 1, changed_fields: ['name'] },
        { id: idOf('opts'), name: 'opts', type: 1, changed_fields: ['options'] },
        { id: idOf('greet'), name: 'greet', type: 1, changed_fields: ['description_localizations'] },
      ],
      deleted: [
        { id: idOf('flip'), name: 'flip', type: 1 },
        { id: idOf('gone'), name: 'gone', type: 1 },
      ],
      unchanged: [{ id: idOf('keep'), name: 'keep', type: 1 }],
      creates_counted: 2,
      creates_remaining: quotaOf(dry).remaining - 2,
    });
    expect((await call('GET', `${path}?with_localizations=true`, app.token)).body).toEqual(before);

    // The real PUT does exactly that.
    const real = await call('PUT', path, app.token, next);
    expect(real.status).toBe(200);
    const after = real.body as Array<{ id: string; name: string; type: number; version: string }>;
    const old = new Map(before.map((c) => [c.id, c]));
    expect(after.filter((c) => !old.has(c.id)).map((c) => ({ name: c.name, type: c.type }))).toEqual(
      dry.body.created,
    );
    expect(
      after.filter((c) => old.has(c.id) && old.get(c.id)?.version !== c.version).map((c) => c.id),
    ).toEqual(dry.body.updated.map((u: { id: string }) => u.id));
    expect(after.filter((c) => old.get(c.id)?.version === c.version).map((c) => c.id)).toEqual(
      dry.body.unchanged.map((u: { id: string }) => u.id),
    );
    const kept = new Set(after.map((c) => c.id));
    expect(before.filter((c) => !kept.has(c.id)).map((c) => c.id)).toEqual(
      dry.body.deleted.map((d: { id: string }) => d.id),
    );
    expect(quotaOf(real).remaining).toBe(dry.body.creates_remaining);

    // Now nothing would change, and the PUT says so.
    const again = await call('PUT', `${path}?dry_run=1`, app.token, next);
    expect(again.headers.get('x-command-sync')).toBe('unchanged');
    expect(again.body).toMatchObject({ created: [], updated: [], deleted: [], creates_counted: 0 });
    const same = await call('PUT', path, app.token, next);
    expect(same.headers.get('x-command-sync')).toBe('unchanged');
    expect(same.body).toEqual(after);
  });

  it('gives a bad item the very 50035 tree of the real PUT; reads dry_run as Discord reads booleans', async () => {
    const app = await newApp();
    const path = `/applications/${app.id}/commands`;
    const bad = [{ name: 'fine', description: 'Fine' }, { name: 'Nope', description: '' }, { type: 9 }];
    const real = await call('PUT', path, app.token, bad);
    const dry = await call('PUT', `${path}?dry_run=true`, app.token, bad);
    expect(real.status).toBe(400);
    expect(dry.status).toBe(400);
    expect(dry.body).toEqual(real.body);
    expect(dry.body.code).toBe(50035);
    quotaOf(dry);

    for (const value of ['true', 'True', '1', 'false', '0']) {
      const answer = await call('PUT', `${path}?dry_run=${value}`, app.token, []);
      expect(answer.status).toBe(200);
      expect(Array.isArray(answer.body)).toBe(value === 'false' || value === '0');
    }
    for (const value of ['yes', '', '2']) {
      const answer = await call('PUT', `${path}?dry_run=${value}`, app.token, []);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          dry_run: { _errors: [{ code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' }] },
        },
      });
      quotaOf(answer);
    }
  });
});

describe('the quota headers', () => {
  it('count down with each create on every command route, and reset with the window', async () => {
    const guild = await createGuild(stack, { name: 'Quota Guild', owner_id: owner.id });
    const app = await newApp([guild.id]);
    const path = `/applications/${app.id}/guilds/${guild.id}/commands`;
    await freshWindow(path, app.token, 6);
    expect(quotaOf(await call('GET', path, app.token)).remaining).toBe(200);
    const created = await call('POST', path, app.token, { name: 'one', description: 'One' });
    expect(created.status).toBe(201);
    expect(quotaOf(created).remaining).toBe(199);
    const put = await call('PUT', path, app.token, [
      { name: 'one', description: 'One' },
      { name: 'two', description: 'Two' },
      { name: 'three', description: 'Three' },
    ]);
    expect(quotaOf(put).remaining).toBe(197);
    const id = (put.body as Array<{ id: string }>)[2]?.id;
    const edited = await call('PATCH', `${path}/${id}`, app.token, { description: 'Edited' });
    expect(quotaOf(edited).remaining).toBe(197);
    expect(quotaOf(await call('GET', `${path}/${id}`, app.token)).remaining).toBe(197);
    const removed = await call('DELETE', `${path}/${id}`, app.token);
    expect(removed.status).toBe(204);
    expect(quotaOf(removed).remaining).toBe(197);
    // The global scope counts apart.
    expect(quotaOf(await call('GET', `/applications/${app.id}/commands`, app.token)).remaining).toBe(200);

    const { resetAfter } = quotaOf(await call('GET', path, app.token));
    expect(resetAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    await new Promise((resolve) => setTimeout(resolve, resetAfter * 1000 + 100));
    const reset = quotaOf(await call('GET', path, app.token));
    expect(reset.remaining).toBe(200);
    expect(reset.resetAfter).toBeGreaterThan(WINDOW_SECONDS - 2);
  }, 30_000);

  it('come with a 30034 too, and with other errors once the scope is known', async () => {
    const app = await newApp();
    const path = `/applications/${app.id}/commands`;
    await freshWindow(path, app.token, 6);
    const many = (prefix: string) =>
      Array.from({ length: 100 }, (_, i) => ({ name: `${prefix}${i}`, description: 'x' }));
    expect((await call('PUT', path, app.token, many('a'))).status).toBe(200);
    const full = await call('PUT', path, app.token, many('b'));
    expect(full.status).toBe(200);
    expect(quotaOf(full).remaining).toBe(0);
    // Room under the 100-command cap (30032), none under the quota.
    expect((await call('PUT', path, app.token, [])).status).toBe(200);
    const refused = await call('POST', path, app.token, { name: 'more', description: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(30034);
    expect(quotaOf(refused).remaining).toBe(0);
    const dry = await call('PUT', `${path}?dry_run=true`, app.token, [{ name: 'more', description: 'x' }]);
    expect(dry.body.code).toBe(30034);
    expect(quotaOf(dry).remaining).toBe(0);
    const unknown = await call('GET', `${path}/1`, app.token);
    expect(unknown.status).toBe(404);
    quotaOf(unknown);
    // Not before the caller is known to own the application.
    const other = await newApp();
    const foreign = await call('GET', path, other.token);
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('x-command-creates-remaining')).toBeNull();
  }, 30_000);
});

describe('GET /applications/{app}/guild-command-index', () => {
  it('lists the guilds with the app’s guild commands, with counts per type and the latest version', async () => {
    const guilds = [];
    for (const name of ['Index A', 'Index B', 'Index C']) {
      guilds.push((await createGuild(stack, { name, owner_id: owner.id })).id);
    }
    guilds.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const app = await newApp(guilds);
    expect(
      (await call('PUT', `/applications/${app.id}/commands`, app.token, [{ name: 'g', description: 'G' }]))
        .status,
    ).toBe(200);
    const latest: string[] = [];
    for (const [i, guildId] of guilds.entries()) {
      const items = [
        ...Array.from({ length: i + 1 }, (_, n) => ({ name: `c${n}`, description: 'C' })),
        ...(i > 0 ? [{ type: 2, name: 'User' }] : []),
        ...(i > 1 ? [{ type: 3, name: 'Message' }] : []),
      ];
      const put = await call('PUT', `/applications/${app.id}/guilds/${guildId}/commands`, app.token, items);
      expect(put.status).toBe(200);
      const versions = (put.body as Array<{ version: string }>).map((c) => BigInt(c.version));
      latest.push(versions.reduce((a, b) => (a > b ? a : b)).toString());
    }

    const index = await call('GET', `/applications/${app.id}/guild-command-index`, app.token);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('application/json');
    expect(index.body).toEqual([
      { guild_id: guilds[0], command_counts: { 1: 1, 2: 0, 3: 0 }, latest_version: latest[0] },
      { guild_id: guilds[1], command_counts: { 1: 2, 2: 1, 3: 0 }, latest_version: latest[1] },
      { guild_id: guilds[2], command_counts: { 1: 3, 2: 1, 3: 1 }, latest_version: latest[2] },
    ]);
    const page = await call(
      'GET',
      `/applications/${app.id}/guild-command-index?after=${guilds[0]}&limit=1`,
      app.token,
    );
    expect(page.body.map((g: { guild_id: string }) => g.guild_id)).toEqual([guilds[1]]);

    // Another app's bot: 403 / 20012; a bad limit: 50035 at `limit`.
    const other = await newApp();
    const foreign = await call('GET', `/applications/${app.id}/guild-command-index`, other.token);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe(20012);
    const badLimit = await call('GET', `/applications/${app.id}/guild-command-index?limit=201`, app.token);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.errors.limit._errors[0].code).toBe('NUMBER_TYPE_MAX');
    expect((await call('GET', `/applications/${other.id}/guild-command-index`, other.token)).body).toEqual(
      [],
    );
  }, 30_000);
});

describe('an identical sync', () => {
  /**
   * The command-registry command events about `applicationId`, as they reach NATS (not
   * `scope.changed`, which every change of the first PUT's also announces: the caches'
   * event, tested by hot-path-caches.e2e).
   */
  function watch(applicationId: string): { seen: string[]; sub: Subscription } {
    const seen: string[] = [];
    const sub = nats.subscribe(`${stack.events.subjectPrefix}.command-registry.command.>`, {
      callback: (_error, message) => {
        const event = message.json<{ data?: { application_id?: string; name?: string } }>();
        if (event.data?.application_id === applicationId)
          seen.push(`${message.subject.split('.').pop()}:${event.data.name}`);
      },
    });
    return { seen, sub };
  }

  it('emits no event: the next event seen is the next real change’s', async () => {
    const app = await newApp();
    const path = `/applications/${app.id}/commands`;
    const { seen, sub } = watch(app.id);
    try {
      const first = await call('PUT', path, app.token, [{ name: 'alpha', description: 'A' }]);
      const identical = await call('PUT', path, app.token, [{ name: 'alpha', description: 'A' }]);
      expect(identical.headers.get('x-command-sync')).toBe('unchanged');
      expect(identical.body).toEqual(first.body);
      expect(quotaOf(identical).remaining).toBe(quotaOf(first).remaining);
      // A rename is announced (command.renamed): once it is seen, anything the identical sync
      // had announced would have been seen before it (the relay publishes in order).
      const renamed = await call('PUT', path, app.token, [
        { id: first.body[0].id, name: 'beta', description: 'A' },
      ]);
      expect(renamed.headers.get('x-command-sync')).toBe('changed');
      for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual(['renamed:beta']);
    } finally {
      sub.unsubscribe();
    }
  });
});

describe('examples/deploy-commands', () => {
  /** Runs the deploy script as a user would, with the app's credentials in its environment. */
  async function deploy(env: Record<string, string>, args: string[] = []) {
    const script = join(__dirname, '..', 'examples', 'deploy-commands');
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [script, ...args],
        { env: { ...process.env, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('applies a sync that changes something, and stops at the dry run for one that changes nothing', async () => {
    const guild = await createGuild(stack, { name: 'Deploy Guild', owner_id: owner.id });
    const app = await newApp([guild.id]);
    const env = { ACS_URL: stack.apiUrl, APPLICATION_ID: app.id, BOT_TOKEN: app.token, GUILD_ID: guild.id };
    const path = `/applications/${app.id}/guilds/${guild.id}/commands`;

    const first = await deploy(env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain('3 to create, 0 to update, 0 to delete, 0 unchanged');
    expect(first.stdout).toContain('Applied: 3 commands.');
    const listed = await call('GET', path, app.token);
    expect(listed.body).toHaveLength(3);

    const second = await deploy(env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('0 to create, 0 to update, 0 to delete, 3 unchanged');
    expect(second.stdout).toContain('Nothing changed: not sending the PUT.');
    expect((await call('GET', path, app.token)).body).toEqual(listed.body);

    const folder = mkdtempSync(join(tmpdir(), 'acs-deploy-'));
    const file = join(folder, 'commands.json');
    writeFileSync(file, JSON.stringify([{ name: 'Bad Name', description: 'x' }]));
    const refused = await deploy(env, [file]);
    rmSync(folder, { recursive: true });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('400 50035: Invalid Form Body');
    expect(refused.stderr).toContain('APPLICATION_COMMAND_INVALID_NAME');
    expect((await call('GET', path, app.token)).body).toEqual(listed.body);
  });
});
