import { EMBEDDED_FLAG, validateCommand, type BulkCommand } from '../../src/domain';
import type { CommandStore } from '../../src/store/command-store';
import { guildColumn, type CommandScope } from '../../src/store/stored-command';
import { openStore, slash, type OpenStore } from './open-store';

const APP = '1300000000000000001';
const GUILD = '1300000000000000100';
const global = { applicationId: APP, guildId: '' };

let ctx: OpenStore;
beforeAll(async () => {
  ctx = await openStore();
});
afterAll(async () => ctx.close());

/** A bulk overwrite's commands, in the body's order (what these tests look at). */
async function overwrite(store: CommandStore, scope: CommandScope, items: BulkCommand[]) {
  return (await store.overwrite(scope, items)).commands;
}

async function outboxSubjects(): Promise<string[]> {
  const { rows } = await ctx.pool.query<{ subject: string }>(
    'SELECT subject FROM outbox ORDER BY created_at, id',
  );
  return rows.map((r) => r.subject);
}

describe('upsert', () => {
  const scope = { applicationId: '1300000000000000002', guildId: '' };

  it('creates (201), keeps id and version for an identical upsert, moves the version on a change', async () => {
    const first = await ctx.store.upsert(scope, slash('ping'));
    expect(first.created).toBe(true);
    expect(first.stored.version).toBe(first.stored.id);

    const same = await ctx.store.upsert(scope, slash('ping'));
    expect(same).toEqual({ stored: first.stored, created: false });

    const changed = await ctx.store.upsert(scope, slash('ping', 'Pong, but louder'));
    expect(changed.created).toBe(false);
    expect(changed.stored.id).toBe(first.stored.id);
    expect(BigInt(changed.stored.version)).toBeGreaterThan(BigInt(first.stored.version));
  });

  it('announces no create or update (Discord has no such event for bots), yet moves the revision', async () => {
    const revision = async () =>
      (
        await ctx.pool.query<{ revision: string }>(
          'SELECT revision::text FROM command_scope WHERE application_id = $1 AND guild_id = $2',
          [scope.applicationId, guildColumn(scope).toString()],
        )
      ).rows[0]?.revision;
    const before = BigInt((await revision()) ?? '0');
    await ctx.store.upsert(scope, slash('pong'));
    await ctx.store.upsert(scope, slash('pong', 'Pong, but louder'));
    expect(BigInt((await revision()) ?? '0')).toBe(before + 2n);
    expect((await outboxSubjects()).filter((s) => /command\.(created|updated)$/.test(s))).toEqual([]);
  });

  it('20 parallel creates of one name yield one command', async () => {
    const scope20 = { applicationId: '1300000000000000003', guildId: '' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => ctx.store.upsert(scope20, slash('race'))),
    );
    expect(new Set(results.map((r) => r.stored.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(
      JSON.parse(await ctx.store.listJson(scope20, { withLocalizations: true, locale: '' })),
    ).toHaveLength(1);
  });

  it('allows the same name for different types and scopes', async () => {
    const user = validateCommand({ type: 2, name: 'race' }, { scope: 'global', applicationFlags: 0 });
    const scope = { applicationId: '1300000000000000003', guildId: '' };
    expect((await ctx.store.upsert(scope, user)).created).toBe(true);
    expect((await ctx.store.upsert({ ...scope, guildId: GUILD }, slash('race'))).created).toBe(true);
  });
});

describe('limits', () => {
  it('refuses the 16th USER command with 30032 and keeps 15', async () => {
    const scope = { applicationId: '1300000000000000004', guildId: '' };
    for (let i = 0; i < 15; i++) {
      await ctx.store.upsert(
        scope,
        validateCommand({ type: 2, name: `User ${i}` }, { scope: 'global', applicationFlags: 0 }),
      );
    }
    await expect(
      ctx.store.upsert(
        scope,
        validateCommand({ type: 2, name: 'One Too Many' }, { scope: 'global', applicationFlags: 0 }),
      ),
    ).rejects.toMatchObject({
      httpStatus: 400,
      code: 30032,
      message: 'Maximum number of application commands reached (15)',
    });
    expect(JSON.parse(await ctx.store.listJson(scope, { withLocalizations: true, locale: '' }))).toHaveLength(
      15,
    );
  });

  it('refuses the 201st create of the day with 30034; upserts of existing commands do not count', async () => {
    const scope = { applicationId: '1300000000000000005', guildId: GUILD };
    for (let round = 0; round < 2; round++) {
      const names = Array.from({ length: 100 }, (_, i) => `cmd-${round}-${i}`);
      await overwrite(
        ctx.store,
        scope,
        names.map((n) => ({ id: null, command: slash(n) })),
      );
    }
    // 200 created today, 100 exist. Re-sending an existing one is not a create; dropping one
    // makes room under the 100-command cap, but not under the daily quota.
    expect((await ctx.store.upsert(scope, slash('cmd-1-0', 'changed'))).created).toBe(false);
    await overwrite(
      ctx.store,
      scope,
      Array.from({ length: 99 }, (_, i) => ({ id: null, command: slash(`cmd-1-${i}`) })),
    );
    await expect(ctx.store.upsert(scope, slash('brand-new'))).rejects.toMatchObject({
      httpStatus: 400,
      code: 30034,
    });
    const names = JSON.parse(await ctx.store.listJson(scope, { withLocalizations: true, locale: '' })).map(
      (c: { name: string }) => c.name,
    );
    expect(names).not.toContain('brand-new');
  });
});

describe('bulk overwrite', () => {
  const scope = { applicationId: '1300000000000000006', guildId: '' };

  it('keeps ids of commands matched by name or by id, deletes the rest, and creates the new', async () => {
    const [a, b, c] = await overwrite(
      ctx.store,
      scope,
      ['alpha', 'beta', 'gamma'].map((n) => ({ id: null, command: slash(n) })),
    );
    const next = await overwrite(ctx.store, scope, [
      { id: null, command: slash('alpha') },
      { id: b!.id, command: slash('beta-renamed') },
      { id: null, command: slash('delta') },
    ]);
    expect(next[0]).toEqual(a);
    expect(next[1]!.id).toBe(b!.id);
    expect(next[1]!.command.name).toBe('beta-renamed');
    expect(next[2]!.id).not.toBe(c!.id);
    const listed = JSON.parse(await ctx.store.listJson(scope, { withLocalizations: true, locale: '' }));
    expect(listed.map((x: { name: string }) => x.name).sort()).toEqual(['alpha', 'beta-renamed', 'delta']);
    expect(await outboxSubjects()).toContain('acs.command-registry.command.renamed');
  });

  it('lets two commands swap names in one overwrite', async () => {
    const [one, two] = await overwrite(ctx.store, scope, [
      { id: null, command: slash('one') },
      { id: null, command: slash('two') },
    ]);
    const swapped = await overwrite(ctx.store, scope, [
      { id: one!.id, command: slash('two') },
      { id: two!.id, command: slash('one') },
    ]);
    expect(swapped.map((s) => [s.id, s.command.name])).toEqual([
      [one!.id, 'two'],
      [two!.id, 'one'],
    ]);
  });

  it('is atomic: a failure (here the daily quota) changes nothing', async () => {
    const quotaScope = { applicationId: '1300000000000000007', guildId: '' };
    await overwrite(
      ctx.store,
      quotaScope,
      Array.from({ length: 100 }, (_, i) => ({ id: null, command: slash(`a${i}`) })),
    );
    await overwrite(
      ctx.store,
      quotaScope,
      Array.from({ length: 99 }, (_, i) => ({ id: null, command: slash(`b${i}`) })),
    );
    const before = await ctx.store.listJson(quotaScope, { withLocalizations: true, locale: '' });
    await expect(
      overwrite(ctx.store, quotaScope, [
        { id: null, command: slash('b0') },
        { id: null, command: slash('new-1') },
        { id: null, command: slash('new-2') },
      ]),
    ).rejects.toMatchObject({ code: 30034 });
    expect(await ctx.store.listJson(quotaScope, { withLocalizations: true, locale: '' })).toBe(before);
  });

  it('racing readers see the old set or the new set, never a mix', async () => {
    const raceScope = { applicationId: '1300000000000000008', guildId: '' };
    const setA = Array.from({ length: 20 }, (_, i) => `a-${i}`);
    const setB = Array.from({ length: 20 }, (_, i) => `b-${i}`);
    await overwrite(
      ctx.store,
      raceScope,
      setA.map((n) => ({ id: null, command: slash(n) })),
    );
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 8; i++) {
        const names = i % 2 === 0 ? setB : setA;
        await overwrite(
          ctx.store,
          raceScope,
          names.map((n) => ({ id: null, command: slash(n) })),
        );
      }
      writing = false;
    })();
    const seen = new Set<string>();
    const readers = [ctx.store, ctx.replica].map(async (reader) => {
      while (writing) {
        const names = JSON.parse(await reader.listJson(raceScope, { withLocalizations: false, locale: 'fr' }))
          .map((c: { name: string }) => c.name)
          .sort()
          .join(',');
        seen.add(names);
      }
    });
    await Promise.all([writer, ...readers]);
    for (const names of seen)
      expect([setA.slice().sort().join(','), setB.slice().sort().join(',')]).toContain(names);
  }, 60_000);
});

/** Today's count of new commands charged to the scope. */
async function dailyCreates(scope: CommandScope): Promise<number> {
  const { rows } = await ctx.pool.query<{ count: number }>(
    `SELECT count FROM daily_creates
      WHERE application_id = $1 AND guild_id = $2
        AND window_start = (now() AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC'`,
    [scope.applicationId, guildColumn(scope).toString()],
  );
  return rows[0]?.count ?? 0;
}

/** Everything a write to the scope could change: its commands, revision, quota and the outbox. */
async function scopeState(scope: CommandScope) {
  const revision = await ctx.pool.query<{ revision: string }>(
    'SELECT revision::text FROM command_scope WHERE application_id = $1 AND guild_id = $2',
    [scope.applicationId, guildColumn(scope).toString()],
  );
  return {
    commands: await ctx.store.listJson(scope, { withLocalizations: true, locale: '' }),
    revision: revision.rows[0]?.revision,
    dailyCreates: await dailyCreates(scope),
    outbox: await outboxSubjects(),
  };
}

describe('bulk overwrite of an app with an entry point', () => {
  const scope = { applicationId: '1300000000000000011', guildId: '' };
  const entryPoint = (name: string) =>
    validateCommand({ type: 4, name, handler: 2 }, { scope: 'global', applicationFlags: EMBEDDED_FLAG });
  let launchId: string;

  beforeAll(async () => {
    launchId = (await ctx.store.ensureEntryPoint(scope.applicationId, entryPoint('Launch'))).stored.id;
    await ctx.store.upsert(scope, slash('ping'));
  });

  it('refuses a body without the entry point with 400 / 50240 and changes nothing', async () => {
    const before = await scopeState(scope);
    for (const items of [
      [
        { id: null, command: slash('ping') },
        { id: null, command: slash('new') },
      ],
      [],
    ]) {
      await expect(overwrite(ctx.store, scope, items)).rejects.toMatchObject({
        httpStatus: 400,
        code: 50240,
        message:
          "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
      });
    }
    expect(await scopeState(scope)).toEqual(before);
  });

  it('matches an entry point item to the entry point whatever its name, keeping its id', async () => {
    const creates = await dailyCreates(scope);
    const [ping, play] = await overwrite(ctx.store, scope, [
      { id: null, command: slash('ping') },
      { id: null, command: entryPoint('Play') },
    ]);
    expect(play).toMatchObject({ id: launchId, command: { type: 4, name: 'Play', handler: 2 } });
    expect(BigInt(play!.version)).toBeGreaterThan(BigInt(launchId));
    const listed = JSON.parse(await ctx.store.listJson(scope, { withLocalizations: true, locale: '' }));
    // Lists are in id order: the entry point came first.
    expect(listed.map((c: { id: string; name: string }) => [c.id, c.name])).toEqual([
      [launchId, 'Play'],
      [ping!.id, 'ping'],
    ]);
    expect(await dailyCreates(scope)).toBe(creates);
  });

  it('still lets DELETE remove the entry point, after which a body without one is accepted', async () => {
    await ctx.store.remove(scope, launchId);
    const [ping] = await overwrite(ctx.store, scope, [{ id: null, command: slash('ping') }]);
    expect(JSON.parse(await ctx.store.listJson(scope, { withLocalizations: true, locale: '' }))).toEqual([
      expect.objectContaining({ id: ping!.id, name: 'ping' }),
    ]);
  });
});

describe('bulk overwrite matching order', () => {
  const scope = { applicationId: '1300000000000000012', guildId: '' };

  it('matches every item carrying a known id before any item is matched by name', async () => {
    const [alpha, beta] = await overwrite(ctx.store, scope, [
      { id: null, command: slash('alpha') },
      { id: null, command: slash('beta') },
    ]);
    const creates = await dailyCreates(scope);
    // The first item shares alpha's name; the second names alpha by id. The id wins.
    const [named, renamed, kept] = await overwrite(ctx.store, scope, [
      { id: null, command: slash('alpha') },
      { id: alpha!.id, command: slash('first') },
      { id: null, command: slash('beta') },
    ]);
    expect(renamed).toMatchObject({ id: alpha!.id, command: { name: 'first' } });
    expect(kept).toEqual(beta);
    expect([alpha!.id, beta!.id]).not.toContain(named!.id);
    expect(named!.command.name).toBe('alpha');
    expect(await dailyCreates(scope)).toBe(creates + 1);
  });
});

describe('edit and delete', () => {
  const scope = { applicationId: '1300000000000000009', guildId: '' };

  it('renames, refuses a rename onto another command (40041), and deletes', async () => {
    const { stored: a } = await ctx.store.upsert(scope, slash('first'));
    await ctx.store.upsert(scope, slash('second'));
    const renamed = await ctx.store.edit(scope, a.id, (c) => ({ ...c, name: 'third' }));
    expect(renamed.command.name).toBe('third');
    await expect(ctx.store.edit(scope, a.id, (c) => ({ ...c, name: 'second' }))).rejects.toMatchObject({
      httpStatus: 400,
      code: 40041,
    });
    await ctx.store.remove(scope, a.id);
    await expect(ctx.store.get(scope, a.id)).rejects.toMatchObject({ httpStatus: 404, code: 10063 });
    await expect(ctx.store.remove(scope, a.id)).rejects.toMatchObject({ code: 10063 });
  });

  it('does not find a command through another scope', async () => {
    const { stored } = await ctx.store.upsert(scope, slash('mine'));
    await expect(ctx.store.get({ applicationId: APP, guildId: '' }, stored.id)).rejects.toMatchObject({
      code: 10063,
    });
    await expect(ctx.store.get({ ...scope, guildId: GUILD }, stored.id)).rejects.toMatchObject({
      code: 10063,
    });
  });
});

describe('lists', () => {
  it('render localized views per locale and see a replica’s writes at once', async () => {
    const scope = { applicationId: '1300000000000000010', guildId: '' };
    const command = validateCommand(
      {
        name: 'hello',
        description: 'Says hello',
        name_localizations: { fr: 'bonjour' },
        description_localizations: { fr: 'Dit bonjour' },
      },
      { scope: 'global', applicationFlags: 0 },
    );
    await ctx.store.upsert(scope, command);
    const fr = JSON.parse(await ctx.store.listJson(scope, { withLocalizations: false, locale: 'fr' }));
    expect(fr[0]).toMatchObject({
      name: 'hello',
      name_localized: 'bonjour',
      description_localized: 'Dit bonjour',
    });
    expect(fr[0]).not.toHaveProperty('name_localizations');
    const de = JSON.parse(await ctx.store.listJson(scope, { withLocalizations: false, locale: 'de' }));
    expect(de[0]).not.toHaveProperty('name_localized');
    const all = JSON.parse(await ctx.store.listJson(scope, { withLocalizations: true, locale: 'fr' }));
    expect(all[0].name_localizations).toEqual({ fr: 'bonjour' });

    await ctx.replica.upsert(scope, slash('later'));
    const after = JSON.parse(await ctx.store.listJson(scope, { withLocalizations: false, locale: 'fr' }));
    expect(after.map((c: { name: string }) => c.name)).toEqual(['hello', 'later']);
  });

  it('see creates and edits made elsewhere at once, though these announce no event', async () => {
    const scope = { applicationId: '1300000000000000012', guildId: '' };
    const listed = async () =>
      (
        JSON.parse(await ctx.store.listJson(scope, { withLocalizations: true, locale: '' })) as Array<{
          name: string;
          description: string;
        }>
      ).map((c) => `${c.name}: ${c.description}`);
    const [ping] = await overwrite(ctx.replica, scope, [{ id: null, command: slash('ping') }]);
    expect(await listed()).toEqual(['ping: Does ping']);
    await ctx.replica.edit(scope, ping!.id, (current) => ({ ...current, description: 'Edited' }));
    expect(await listed()).toEqual(['ping: Edited']);
    await overwrite(ctx.replica, scope, [
      { id: ping!.id, command: slash('ping', 'Edited in bulk') },
      { id: null, command: slash('pong') },
    ]);
    expect(await listed()).toEqual(['ping: Edited in bulk', 'pong: Does pong']);
  });

  it('answers [] for a scope that never had commands', async () => {
    expect(await ctx.store.listJson(global, { withLocalizations: false, locale: '' })).toBe('[]');
  });
});

/** What permissions compares its overwrites with: the command's version and since when it has its name. */
async function versionsOf(commandId: string): Promise<{ version: string; namedVersion: string }> {
  const { rows } = await ctx.pool.query<{ version: string; named_version: string }>(
    'SELECT version::text, named_version::text FROM command WHERE id = $1',
    [commandId],
  );
  if (!rows[0]) throw new Error(`no command ${commandId}`);
  return { version: rows[0].version, namedVersion: rows[0].named_version };
}

describe('named_version (the version at which a command got its current name)', () => {
  const scope = { applicationId: '1300000000000000013', guildId: GUILD };

  it('upsert: set to the first version on create, kept by an update', async () => {
    const { stored } = await ctx.store.upsert(scope, slash('ping'));
    expect(await versionsOf(stored.id)).toEqual({ version: stored.id, namedVersion: stored.id });

    const { stored: updated } = await ctx.store.upsert(scope, slash('ping', 'Pong, but louder'));
    expect(BigInt(updated.version)).toBeGreaterThan(BigInt(stored.version));
    expect(await versionsOf(stored.id)).toEqual({ version: updated.version, namedVersion: stored.id });
  });

  it('edit: kept by other changes, moved by each rename, including one back to an earlier name', async () => {
    const { stored } = await ctx.store.upsert(scope, slash('alpha'));
    const described = await ctx.store.edit(scope, stored.id, (c) => ({ ...c, description: 'Still alpha' }));
    const restricted = await ctx.store.edit(scope, stored.id, (c) => ({
      ...c,
      default_member_permissions: '32',
    }));
    expect(BigInt(restricted.version)).toBeGreaterThan(BigInt(described.version));
    expect(await versionsOf(stored.id)).toEqual({ version: restricted.version, namedVersion: stored.id });

    const beta = await ctx.store.edit(scope, stored.id, (c) => ({ ...c, name: 'beta' }));
    expect(await versionsOf(stored.id)).toEqual({ version: beta.version, namedVersion: beta.version });
    const back = await ctx.store.edit(scope, stored.id, (c) => ({ ...c, name: 'alpha' }));
    expect(await versionsOf(stored.id)).toEqual({ version: back.version, namedVersion: back.version });
    expect(BigInt(back.version)).toBeGreaterThan(BigInt(beta.version));

    // A rename refused (40041) changes nothing.
    await ctx.store.upsert(scope, slash('gamma'));
    await expect(ctx.store.edit(scope, stored.id, (c) => ({ ...c, name: 'gamma' }))).rejects.toMatchObject({
      code: 40041,
    });
    expect(await versionsOf(stored.id)).toEqual({ version: back.version, namedVersion: back.version });
  });

  it('bulk overwrite: kept when unchanged or edited, moved on rename, set on create, moved on a swap', async () => {
    const bulkScope = { applicationId: '1300000000000000014', guildId: '' };
    const [same, edited, renamed, one, two] = await overwrite(
      ctx.store,
      bulkScope,
      ['same', 'edited', 'renamed', 'one', 'two'].map((n) => ({ id: null, command: slash(n) })),
    );
    for (const s of [same, edited, renamed, one, two])
      expect(await versionsOf(s!.id)).toEqual({ version: s!.id, namedVersion: s!.id });

    const next = await overwrite(ctx.store, bulkScope, [
      { id: null, command: slash('same') },
      { id: null, command: slash('edited', 'A new description') },
      { id: renamed!.id, command: slash('renamed-now') },
      // The two swap names in this one overwrite: both are renamed.
      { id: one!.id, command: slash('two') },
      { id: two!.id, command: slash('one') },
      { id: null, command: slash('fresh') },
    ]);
    const [sameNow, editedNow, renamedNow, oneNow, twoNow, fresh] = next.map((s) => s!);
    expect(await versionsOf(same!.id)).toEqual({ version: same!.id, namedVersion: same!.id });
    expect(BigInt(editedNow!.version)).toBeGreaterThan(BigInt(edited!.version));
    expect(await versionsOf(edited!.id)).toEqual({ version: editedNow!.version, namedVersion: edited!.id });
    for (const s of [renamedNow!, oneNow!, twoNow!]) {
      expect(BigInt(s.version)).toBeGreaterThan(BigInt(s.id));
      expect(await versionsOf(s.id)).toEqual({ version: s.version, namedVersion: s.version });
    }
    expect(sameNow).toEqual(same);
    expect(await versionsOf(fresh!.id)).toEqual({ version: fresh!.id, namedVersion: fresh!.id });

    // Swapped back: the names are the ones of the first overwrite again, set later.
    const [oneBack, twoBack] = await overwrite(ctx.store, bulkScope, [
      { id: one!.id, command: slash('one') },
      { id: two!.id, command: slash('two') },
    ]);
    for (const [before, after] of [
      [oneNow!, oneBack!],
      [twoNow!, twoBack!],
    ]) {
      expect(BigInt(after!.version)).toBeGreaterThan(BigInt(before!.version));
      expect(await versionsOf(after!.id)).toEqual({ version: after!.version, namedVersion: after!.version });
    }
  });

  it('entry point: set on ensure; moved when a bulk overwrite renames it, kept when it only edits it', async () => {
    const appId = '1300000000000000015';
    const entryPoint = (name: string, description = 'Launch it') =>
      validateCommand(
        { type: 4, name, description, handler: 2 },
        { scope: 'global', applicationFlags: EMBEDDED_FLAG },
      );
    const { stored: launch } = await ctx.store.ensureEntryPoint(appId, entryPoint('Launch'));
    expect(await versionsOf(launch.id)).toEqual({ version: launch.id, namedVersion: launch.id });

    const epScope = { applicationId: appId, guildId: '' };
    const [edited] = await overwrite(ctx.store, epScope, [
      { id: null, command: entryPoint('Launch', 'Launch it now') },
    ]);
    expect(await versionsOf(launch.id)).toEqual({ version: edited!.version, namedVersion: launch.id });
    const [play] = await overwrite(ctx.store, epScope, [{ id: null, command: entryPoint('Play') }]);
    expect(play!.id).toBe(launch.id);
    expect(await versionsOf(launch.id)).toEqual({ version: play!.version, namedVersion: play!.version });
  });
});
