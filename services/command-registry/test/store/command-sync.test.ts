import {
  changedFields,
  MAX_DAILY_CREATES,
  validateBulk,
  type BulkCommand,
  type OverwriteDiff,
} from '../../src/domain';
import { CommandLookup } from '../../src/store/command-lookup';
import type { CommandStore, OverwritePreview } from '../../src/store/command-store';
import { guildColumn, type CommandScope, type StoredCommand } from '../../src/store/stored-command';
import { openStore, type OpenStore } from './open-store';

// The ACS-only sync extensions at the store: the dry run against the real PUT, the create
// quota's window, identical syncs, and the guilds an app has commands in.

/**
 * The create quota's window in these tests: long enough that a test's writes, on a machine
 * as busy as CI's, end well inside the window `freshWindow` waited for.
 */
const WINDOW_SECONDS = 20;
/** What is left of the window when a test starts its writes: more than any test takes. */
const ROOM_MS = 14_000;
// A test may wait out one window before its writes, and the reset test a second one.
jest.setTimeout(3 * WINDOW_SECONDS * 1000);
let ctx: OpenStore;
let scopeCount = 0;
beforeAll(async () => {
  ctx = await openStore({ createsWindowSeconds: WINDOW_SECONDS });
});
afterAll(async () => ctx.close());

/** A scope of the test's own (a fresh application), global unless a guild is given. */
function newScope(guildId = ''): CommandScope {
  scopeCount += 1;
  return { applicationId: String(1500000000000000000n + BigInt(scopeCount)), guildId };
}

/** A bulk body as the API receives it, validated as the handler does. */
function body(scope: CommandScope, items: unknown[]): BulkCommand[] {
  return validateBulk(items, { scope: scope.guildId === '' ? 'global' : 'guild', applicationFlags: 0 });
}

/** The scope's commands as stored, in id order. */
async function stored(scope: CommandScope): Promise<StoredCommand[]> {
  const json = await ctx.store.listJson(scope, { withLocalizations: true, locale: '' });
  return Promise.all((JSON.parse(json) as Array<{ id: string }>).map((c) => ctx.store.get(scope, c.id)));
}

/** The diff a real overwrite made, read from the scope before and after it. */
function actualDiff(before: StoredCommand[], after: StoredCommand[]): OverwriteDiff {
  const old = new Map(before.map((c) => [c.id, c]));
  const kept = new Set(after.map((c) => c.id));
  const entry = (c: StoredCommand) => ({ id: c.id, name: c.command.name, type: c.command.type });
  return {
    created: after.filter((c) => !old.has(c.id)).map((c) => ({ name: c.command.name, type: c.command.type })),
    updated: after.flatMap((c) => {
      const was = old.get(c.id);
      return was && was.version !== c.version
        ? [{ ...entry(c), changed_fields: changedFields(was.command, c.command) }]
        : [];
    }),
    deleted: before.filter((c) => !kept.has(c.id)).map(entry),
    unchanged: after.filter((c) => old.get(c.id)?.version === c.version).map(entry),
  };
}

async function outboxCount(): Promise<number> {
  const { rows } = await ctx.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM outbox');
  return rows[0]?.count ?? 0;
}

async function revision(scope: CommandScope): Promise<string | undefined> {
  const { rows } = await ctx.pool.query<{ revision: string }>(
    'SELECT revision::text FROM command_scope WHERE application_id = $1 AND guild_id = $2',
    [scope.applicationId, guildColumn(scope).toString()],
  );
  return rows[0]?.revision;
}

/**
 * Runs the dry run, then the real PUT, and checks the dry run predicted it: the same
 * creates, updates (with their changed fields), deletes and unchanged commands, the same
 * count of creates, and a quota that moved by exactly that count.
 */
async function previewThenApply(store: CommandStore, scope: CommandScope, items: BulkCommand[]) {
  const before = await stored(scope);
  const preview = await store.previewOverwrite(scope, items);
  expect(await stored(scope)).toEqual(before);
  const outcome = await store.overwrite(scope, items);
  const after = await stored(scope);
  expect(preview.diff).toEqual(actualDiff(before, after));
  expect(outcome.changed).toBe(
    preview.createsCounted + preview.diff.updated.length + preview.diff.deleted.length > 0,
  );
  const quota = await store.createQuota(scope);
  return { preview, outcome, quota };
}

/** Waits, if need be, for a quota window with at least `ms` left, so that a test's steps share one window. */
async function freshWindow(scope: CommandScope, ms: number): Promise<void> {
  const { resetAfterMs } = await ctx.store.createQuota(scope);
  if (resetAfterMs < ms) await new Promise((resolve) => setTimeout(resolve, resetAfterMs + 50));
}

const option = (name: string) => ({ type: 3, name, description: `The ${name}` });

describe('the dry run predicts the real PUT', () => {
  it('for a rename (by id), reordered options, a localization only, a type change and a new command', async () => {
    const scope = newScope();
    await freshWindow(scope, ROOM_MS);
    const seed = await ctx.store.overwrite(
      scope,
      body(scope, [
        { name: 'old', description: 'Renamed later' },
        { name: 'opts', description: 'Options', options: [option('a'), option('b')] },
        { name: 'greet', description: 'Hello' },
        { name: 'flip', description: 'Becomes a USER command' },
        { name: 'keep', description: 'Stays' },
      ]),
    );
    const [old] = seed.commands;
    const { preview, outcome } = await previewThenApply(
      ctx.store,
      scope,
      body(scope, [
        { id: old?.id, name: 'new', description: 'Renamed later' },
        { name: 'opts', description: 'Options', options: [option('b'), option('a')] },
        { name: 'greet', description: 'Hello', description_localizations: { fr: 'Bonjour' } },
        { type: 2, name: 'flip' },
        { name: 'keep', description: 'Stays' },
        { name: 'fresh', description: 'New' },
      ]),
    );
    expect(preview.diff.updated.map((u) => [u.name, u.changed_fields])).toEqual([
      ['new', ['name']],
      ['opts', ['options']],
      ['greet', ['description_localizations']],
    ]);
    // A type change is a new command (of the new type) and the old one deleted, as the PUT matches by type.
    expect(preview.diff.created).toEqual([
      { name: 'flip', type: 2 },
      { name: 'fresh', type: 1 },
    ]);
    expect(preview.diff.deleted).toEqual([{ id: seed.commands[3]?.id, name: 'flip', type: 1 }]);
    expect(preview.diff.unchanged).toEqual([{ id: seed.commands[4]?.id, name: 'keep', type: 1 }]);
    expect(preview.createsCounted).toBe(2);
    expect(outcome.commands[0]?.id).toBe(old?.id);
  });

  it('for the 200th create of the window, and refuses the 201st with 30034 as the PUT does', async () => {
    const scope = newScope();
    await freshWindow(scope, ROOM_MS);
    const names = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}`, description: 'x' }));
    await ctx.store.overwrite(scope, body(scope, names('a', 100)));
    await ctx.store.overwrite(scope, body(scope, names('b', 99)));
    const last = await previewThenApply(
      ctx.store,
      scope,
      body(scope, [...names('b', 99), { name: 'c', description: 'x' }]),
    );
    expect(last.preview.createsCounted).toBe(1);
    expect(last.preview.quota.remaining).toBe(1);
    expect(last.quota.remaining).toBe(0);

    const over = body(scope, [{ name: 'd', description: 'x' }]);
    await expect(ctx.store.previewOverwrite(scope, over)).rejects.toMatchObject({ code: 30034 });
    await expect(ctx.store.overwrite(scope, over)).rejects.toMatchObject({ code: 30034 });
    // …while an overwrite that creates nothing is still allowed, and predicted as such.
    const shrink = await previewThenApply(ctx.store, scope, body(scope, [{ name: 'c', description: 'x' }]));
    expect(shrink.preview.diff.deleted).toHaveLength(99);
    expect(shrink.preview.createsCounted).toBe(0);
  });
});

describe('identical syncs', () => {
  it('change no version, revision, event or quota, and say so', async () => {
    const scope = newScope('1500000000000000900');
    const items = body(scope, [
      { name: 'a', description: 'A', options: [option('x')] },
      { type: 3, name: 'Quote' },
    ]);
    await ctx.store.overwrite(scope, items);
    // A rename is announced: the outbox is watched, not idle.
    const first = await ctx.store.overwrite(
      scope,
      body(scope, [
        { name: 'b', description: 'A' },
        { type: 3, name: 'Quote' },
      ]),
    );
    const events = await outboxCount();
    const rev = await revision(scope);
    const quota = await ctx.store.createQuota(scope);

    const again = body(scope, [
      { type: 3, name: 'Quote' },
      { description: 'A', name: 'b' },
    ]);
    const preview: OverwritePreview = await ctx.store.previewOverwrite(scope, again);
    expect(preview.diff).toMatchObject({ created: [], updated: [], deleted: [] });
    const outcome = await ctx.store.overwrite(scope, again);
    expect(outcome.changed).toBe(false);
    expect(outcome.commands.map((c) => [c.id, c.version])).toEqual(
      [first.commands[1], first.commands[0]].map((c) => [c?.id, c?.version]),
    );
    expect(await outboxCount()).toBe(events);
    expect(await revision(scope)).toBe(rev);
    expect((await ctx.store.createQuota(scope)).remaining).toBe(quota.remaining);
  });
});

describe('the create quota window', () => {
  it('counts down with each create and resets when the window ends', async () => {
    const scope = newScope();
    await freshWindow(scope, ROOM_MS);
    expect((await ctx.store.createQuota(scope)).remaining).toBe(MAX_DAILY_CREATES);
    await ctx.store.overwrite(scope, body(scope, [{ name: 'a', description: 'A' }]));
    await ctx.store.upsert(scope, body(scope, [{ name: 'b', description: 'B' }])[0]!.command);
    const spent = await ctx.store.createQuota(scope);
    expect(spent.remaining).toBe(MAX_DAILY_CREATES - 2);
    expect(spent.resetAfterMs).toBeGreaterThan(0);
    expect(spent.resetAfterMs).toBeLessThanOrEqual(WINDOW_SECONDS * 1000);

    await new Promise((resolve) => setTimeout(resolve, spent.resetAfterMs + 50));
    const reset = await ctx.store.createQuota(scope);
    expect(reset.remaining).toBe(MAX_DAILY_CREATES);
    expect(reset.resetAfterMs).toBeGreaterThan(ROOM_MS);
  });
});

describe('the guilds an app has commands in', () => {
  it('lists each guild with counts per type and its latest version, by id, paged', async () => {
    const app = newScope().applicationId;
    const guilds = ['1500000000000000701', '1500000000000000702', '1500000000000000703'];
    await ctx.store.upsert(
      { applicationId: app, guildId: '' },
      body(newScope(), [{ name: 'g', description: 'G' }])[0]!.command,
    );
    const made = [];
    for (const [i, guildId] of guilds.entries()) {
      const scope = { applicationId: app, guildId };
      const items = [
        ...Array.from({ length: i + 1 }, (_, n) => ({ name: `c${n}`, description: 'C' })),
        ...(i > 0 ? [{ type: 2, name: 'User' }] : []),
        ...(i > 1 ? [{ type: 3, name: 'Message' }] : []),
      ];
      made.push((await ctx.store.overwrite(scope, body(scope, items))).commands);
    }
    // An edit moves the guild's latest version.
    const edited = await ctx.store.edit(
      { applicationId: app, guildId: guilds[0]! },
      made[0]![0]!.id,
      (c) => ({
        ...c,
        description: 'Edited',
      }),
    );
    const lookup = new CommandLookup(ctx.pool);
    const all = await lookup.commandGuilds(app, '', 200);
    const max = (cs: StoredCommand[]) =>
      cs
        .map((c) => BigInt(c.version))
        .reduce((a, b) => (a > b ? a : b))
        .toString();
    expect(all).toEqual([
      { guildId: guilds[0], counts: { chatInput: 1, user: 0, message: 0 }, latestVersion: edited.version },
      { guildId: guilds[1], counts: { chatInput: 2, user: 1, message: 0 }, latestVersion: max(made[1]!) },
      { guildId: guilds[2], counts: { chatInput: 3, user: 1, message: 1 }, latestVersion: max(made[2]!) },
    ]);
    expect((await lookup.commandGuilds(app, guilds[0]!, 1)).map((g) => g.guildId)).toEqual([guilds[1]]);
    // A guild whose commands are all deleted is no longer listed.
    await ctx.store.overwrite({ applicationId: app, guildId: guilds[1]! }, []);
    expect((await lookup.commandGuilds(app, '', 200)).map((g) => g.guildId)).toEqual([guilds[0], guilds[2]]);
  });
});
