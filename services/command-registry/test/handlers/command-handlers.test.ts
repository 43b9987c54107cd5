import { MissingAccessError } from '@acs/discord-errors';
import type { GuildInstallation, OAuthClient } from '../../src/clients/oauth-client';
import { createCommandHandlers } from '../../src/handlers/command-handlers';
import { createCommandIndexHandlers } from '../../src/handlers/command-index-handlers';
import { CommandLookup } from '../../src/store/command-lookup';
import { openStore, type OpenStore } from '../store/open-store';

const APP = '1400000000000000001';
const OTHER_APP = '1400000000000000002';
const GUILD = '1400000000000000010';
const INDEX_GUILD = '1400000000000000011';

/** oauth's installations, scopes by `guildId:applicationId`: a fake of the client interface (the network edge). */
const installations = new Map<string, string[]>();
/** The installations the fake was asked about. */
const asked: string[] = [];
const oauth: OAuthClient = {
  async installationScopes(applicationId, guildId) {
    asked.push(`${guildId}:${applicationId}`);
    const scopes = installations.get(`${guildId}:${applicationId}`);
    if (!scopes) throw new MissingAccessError();
    return scopes;
  },
  async listGuildInstallations(guildId): Promise<GuildInstallation[]> {
    return [...installations]
      .map(([key, scopes]) => ({ key: key.split(':'), scopes }))
      .filter(({ key }) => key[0] === guildId)
      .map(({ key, scopes }) => ({ applicationId: key[1]!, scopes, name: `App ${key[1]}`, botId: key[1]! }));
  },
};

let ctx: OpenStore;
let commands: ReturnType<typeof createCommandHandlers>;
let index: ReturnType<typeof createCommandIndexHandlers>;

beforeAll(async () => {
  ctx = await openStore();
  commands = createCommandHandlers({ store: ctx.store, oauth });
  index = createCommandIndexHandlers({ lookup: new CommandLookup(ctx.pool), oauth });
});
afterAll(async () => ctx?.close());
beforeEach(() => {
  installations.clear();
  asked.length = 0;
});

/** Creates a command `name` of the app in the guild ('' for global) through the handler. */
function create(applicationId: string, guildId: string, name: string) {
  return commands.CreateCommand({
    application_id: applicationId,
    guild_id: guildId,
    body_json: JSON.stringify({ name, description: `Does ${name}` }),
    application_flags: 0,
  });
}

describe('command handlers', () => {
  it('never ask oauth about global commands', async () => {
    await expect(create(APP, '', 'ping')).resolves.toMatchObject({ created: true });
    expect(asked).toEqual([]);
  });

  it('write guild commands where the app is installed with `bot` or `applications.commands`', async () => {
    installations.set(`${GUILD}:${APP}`, ['bot']);
    installations.set(`${GUILD}:${OTHER_APP}`, ['applications.commands']);
    await expect(create(APP, GUILD, 'mod')).resolves.toMatchObject({ created: true });
    await expect(create(OTHER_APP, GUILD, 'mod')).resolves.toMatchObject({ created: true });
    expect(asked).toEqual([`${GUILD}:${APP}`, `${GUILD}:${OTHER_APP}`]);
  });

  it("answer 403 / 50001 where the app is not installed (oauth's answer) or has no command scope", async () => {
    const list = () =>
      commands.ListCommands({ application_id: APP, guild_id: GUILD, with_localizations: false, locale: '' });
    await expect(list()).rejects.toMatchObject({ httpStatus: 403, code: 50001 });
    installations.set(`${GUILD}:${APP}`, []);
    await expect(list()).rejects.toMatchObject({ httpStatus: 403, code: 50001 });
  });
});

describe('the dry run of a bulk overwrite (ACS-only)', () => {
  const DRY_APP = '1400000000000000003';
  const request = (body: unknown, guildId = '') => ({
    application_id: DRY_APP,
    guild_id: guildId,
    body_json: JSON.stringify(body),
    application_flags: 0,
  });

  it('refuses a bad body with the very error of the real PUT, and writes nothing', async () => {
    const bad = [{ name: 'ok', description: 'Fine' }, { name: 'Nope', description: '' }, 'x'];
    const real = await commands.BulkOverwriteCommands(request(bad)).catch((e: unknown) => e);
    const dry = await commands.PreviewBulkOverwrite(request(bad)).catch((e: unknown) => e);
    expect(real).toMatchObject({ httpStatus: 400, code: 50035 });
    expect(dry).toEqual(real);
    expect((dry as { errors: unknown }).errors).toEqual((real as { errors: unknown }).errors);
    for (const body of ['{', '{"name":"x"}']) {
      const realError = await commands
        .BulkOverwriteCommands({ ...request(null), body_json: body })
        .catch((e) => e);
      await expect(commands.PreviewBulkOverwrite({ ...request(null), body_json: body })).rejects.toEqual(
        realError,
      );
    }
    // …and the installation check of a guild scope, as the PUT.
    await expect(commands.PreviewBulkOverwrite(request([], GUILD))).rejects.toMatchObject({ code: 50001 });
    const listed = await commands.ListCommands({ ...request(null), with_localizations: false, locale: '' });
    expect(listed.commands_json).toBe('[]');
  });

  it('answers the diff with the creates it counts and those left after it, and the quota as it stands', async () => {
    await commands.BulkOverwriteCommands(request([{ name: 'kept', description: 'K' }]));
    const dry = await commands.PreviewBulkOverwrite(
      request([
        { name: 'kept', description: 'K' },
        { name: 'new', description: 'N' },
      ]),
    );
    expect(JSON.parse(dry.diff_json)).toEqual({
      created: [{ name: 'new', type: 1 }],
      updated: [],
      deleted: [],
      unchanged: [{ id: expect.any(String), name: 'kept', type: 1 }],
      creates_counted: 1,
      creates_remaining: 198,
    });
    expect(dry.changed).toBe(true);
    expect(dry.quota).toMatchObject({ remaining: 199 });
    const same = await commands.PreviewBulkOverwrite(request([{ name: 'kept', description: 'K' }]));
    expect(same.changed).toBe(false);
    const real = await commands.BulkOverwriteCommands(request([{ name: 'kept', description: 'K' }]));
    expect(real).toMatchObject({ changed: false, quota: { remaining: 199 } });
  });
});

describe('the command index', () => {
  it('shows the commands of the apps installed in the guild with a command scope, and only those', async () => {
    const [shownApp, scopelessApp, absentApp] = [
      '1400000000000000021',
      '1400000000000000022',
      '1400000000000000023',
    ];
    installations.set(`${INDEX_GUILD}:${shownApp}`, ['applications.commands']);
    installations.set(`${INDEX_GUILD}:${scopelessApp}`, []);
    for (const app of [shownApp, scopelessApp, absentApp]) await create(app, '', 'hello');
    await create(shownApp, INDEX_GUILD, 'local');

    const answer = await index.ListGuildCommandIndex({ guild_id: INDEX_GUILD, locale: '' });
    expect(JSON.parse(answer.applications_json as string)).toEqual([
      { id: shownApp, name: `App ${shownApp}`, description: '', icon: null, bot_id: shownApp },
    ]);
    const shown = JSON.parse(answer.commands_json as string) as { application_id: string; name: string }[];
    expect(shown.map((c) => [c.application_id, c.name])).toEqual([
      [shownApp, 'hello'],
      [shownApp, 'local'],
    ]);
  });
});
