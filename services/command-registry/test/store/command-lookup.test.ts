import { validateCommand } from '../../src/domain';
import { CommandLookup } from '../../src/store/command-lookup';
import { openStore, slash, type OpenStore } from './open-store';

const APP = '100';
const OTHER_APP = '101';
const GUILD = '200';
const OTHER_GUILD = '201';

let ctx: OpenStore;
let lookup: CommandLookup;

beforeAll(async () => {
  ctx = await openStore();
  lookup = new CommandLookup(ctx.pool);
});

afterAll(async () => {
  await ctx?.close();
});

describe('CommandLookup', () => {
  it('resolves ids across the global scope and one guild, and follows renames, edits and deletes at once', async () => {
    const global = await ctx.store.upsert({ applicationId: APP, guildId: '' }, slash('global'));
    const guild = await ctx.store.upsert(
      { applicationId: APP, guildId: GUILD },
      validateCommand(
        { name: 'mod', description: 'Moderate', default_member_permissions: '32' },
        { scope: 'guild', applicationFlags: 0 },
      ),
    );
    const elsewhere = await ctx.store.upsert(
      { applicationId: APP, guildId: OTHER_GUILD },
      slash('elsewhere'),
    );
    const other = await ctx.store.upsert({ applicationId: OTHER_APP, guildId: '' }, slash('other'));
    const ids = [global.stored.id, guild.stored.id, elsewhere.stored.id, other.stored.id, '999'];

    const found = await lookup.resolve(APP, GUILD, ids);
    expect(found.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      {
        id: global.stored.id,
        applicationId: APP,
        guildId: '',
        name: 'global',
        version: global.stored.version,
        namedVersion: global.stored.id,
        defaultMemberPermissions: null,
      },
      {
        id: guild.stored.id,
        applicationId: APP,
        guildId: GUILD,
        name: 'mod',
        version: guild.stored.version,
        namedVersion: guild.stored.id,
        defaultMemberPermissions: '32',
      },
    ]);

    const renamed = await ctx.store.edit({ applicationId: APP, guildId: GUILD }, guild.stored.id, (c) => ({
      ...c,
      name: 'moderate',
    }));
    await ctx.store.remove({ applicationId: APP, guildId: '' }, global.stored.id);
    expect(await lookup.resolve(APP, GUILD, ids)).toEqual([
      expect.objectContaining({
        id: guild.stored.id,
        name: 'moderate',
        version: renamed.version,
        namedVersion: renamed.version,
      }),
    ]);
    // An edit that keeps the name keeps the version it was set at.
    const described = await ctx.store.edit({ applicationId: APP, guildId: GUILD }, guild.stored.id, (c) => ({
      ...c,
      description: 'Moderate, politely',
    }));
    expect(await lookup.resolve(APP, GUILD, [guild.stored.id])).toEqual([
      expect.objectContaining({ version: described.version, namedVersion: renamed.version }),
    ]);

    expect(await lookup.applicationsWithCommands(GUILD)).toEqual([APP, OTHER_APP]);
    const index = await lookup.listForGuild([APP, OTHER_APP], GUILD, 'fr');
    expect(index.map((c) => c.command.name)).toEqual(['moderate', 'other']);
    expect(index[0]?.command).toMatchObject({
      guild_id: GUILD,
      default_member_permissions: '32',
      application_id: APP,
    });
    // With each command, what resolve says of it (permissions decides the picker with it).
    expect(index.map((c) => c.summary)).toEqual([
      ...(await lookup.resolve(APP, GUILD, [guild.stored.id])),
      ...(await lookup.resolve(OTHER_APP, GUILD, [other.stored.id])),
    ]);
  });

  it("resolves all of an app's commands in a guild: global and that guild's, not another guild's or app's", async () => {
    // Apps of their own: the database is shared with the test above.
    const app = '110';
    const scope = (guildId: string) => ({ applicationId: app, guildId });
    const global = await ctx.store.upsert(scope(''), slash('everywhere'));
    const here = await ctx.store.upsert(scope(GUILD), slash('here'));
    await ctx.store.upsert(scope(OTHER_GUILD), slash('there'));
    await ctx.store.upsert({ applicationId: '111', guildId: GUILD }, slash('theirs'));

    const all = await lookup.resolve(app, GUILD, 'all');
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(all.sort(byName)).toEqual(
      (await lookup.resolve(app, GUILD, [global.stored.id, here.stored.id])).sort(byName),
    );
    expect(all.map((c) => c.name)).toEqual(['everywhere', 'here']);
    expect(await lookup.resolve(app, '999', 'all')).toEqual([
      expect.objectContaining({ id: global.stored.id, guildId: '' }),
    ]);
    expect(await lookup.resolve('112', GUILD, 'all')).toEqual([]);
  });
});
