import type { commandRegistry } from '@acs/protos';
import type { OAuthClient } from '../../src/clients/oauth-client';
import { EMBEDDED_FLAG } from '../../src/domain/limits';
import { createCommandHandlers } from '../../src/handlers/command-handlers';
import { createInvocationHandlers } from '../../src/handlers/invocation-handlers';
import { CommandLookup } from '../../src/store/command-lookup';
import { openStore, type OpenStore } from '../store/open-store';

// GetInvocableCommand as the interactions service sees it: the command an invocation names,
// found among the app's global commands and its commands in the invocation's guild only.

const APP = '1500000000000000001';
const OTHER_APP = '1500000000000000002';
const GUILD = '1500000000000000010';
const OTHER_GUILD = '1500000000000000011';

/** oauth at the network edge: every app is installed everywhere (installs are not this RPC's question). */
const oauth: OAuthClient = {
  installationScopes: async () => ['applications.commands'],
  listGuildInstallations: async () => [],
};

let ctx: OpenStore;
let commands: ReturnType<typeof createCommandHandlers>;
let invocations: ReturnType<typeof createInvocationHandlers>;

beforeAll(async () => {
  ctx = await openStore();
  commands = createCommandHandlers({ store: ctx.store, oauth });
  invocations = createInvocationHandlers({ lookup: new CommandLookup(ctx.pool) });
});
afterAll(async () => ctx?.close());

/** Creates a command of the app in the guild ('' for global) and answers its wire object. */
async function create(
  applicationId: string,
  guildId: string,
  body: object,
): Promise<Record<string, unknown>> {
  const answer = await commands.CreateCommand({
    application_id: applicationId,
    guild_id: guildId,
    body_json: JSON.stringify(body),
    application_flags: 0,
  });
  return JSON.parse(answer.command_json as string) as Record<string, unknown>;
}

const invocable = (request: Partial<commandRegistry.GetInvocableCommandRequest__Output>) =>
  invocations.GetInvocableCommand({ application_id: APP, guild_id: '', command_id: '', ...request });

/** GetCommand's answer for the command in its scope: what GetInvocableCommand must answer too. */
async function getCommand(guildId: string, commandId: string): Promise<unknown> {
  const answer = await commands.GetCommand({ application_id: APP, guild_id: guildId, command_id: commandId });
  return JSON.parse(answer.command_json as string);
}

const unknownCommand = expect.objectContaining({
  httpStatus: 404,
  code: 10063,
  message: 'Unknown application command',
});

describe('GetInvocableCommand', () => {
  it('finds a global command in a guild and outside any, as GET answers it', async () => {
    // Every field an invocation is checked against.
    const body = {
      name: 'roll',
      description: 'Rolls dice',
      name_localizations: { fr: 'lancer' },
      contexts: [0, 1, 2],
      integration_types: [0, 1],
      nsfw: true,
      default_member_permissions: '2048',
      options: [
        {
          type: 4,
          name: 'sides',
          description: 'How many sides',
          required: true,
          min_value: 2,
          max_value: 100,
        },
        { type: 3, name: 'label', description: 'A label', choices: [{ name: 'Red', value: 'red' }] },
      ],
    };
    const created = await create(APP, '', body);
    const id = created.id as string;
    const expected = await getCommand('', id);

    for (const guildId of ['', GUILD]) {
      const answer = await invocable({ guild_id: guildId, command_id: id });
      expect(answer.guild_id).toBe('');
      expect(answer.named_version).toBe(id);
      const command = JSON.parse(answer.command_json) as Record<string, unknown>;
      expect(command).toEqual(expected);
      expect(command).toMatchObject({ id, application_id: APP, version: created.version, type: 1, ...body });
      expect(command).not.toHaveProperty('guild_id');
    }
  });

  it("finds a guild's command in that guild only", async () => {
    const created = await create(APP, GUILD, { name: 'local', description: 'Here only' });
    const id = created.id as string;

    const answer = await invocable({ guild_id: GUILD, command_id: id });
    expect(answer.guild_id).toBe(GUILD);
    expect(JSON.parse(answer.command_json)).toEqual(await getCommand(GUILD, id));
    expect(JSON.parse(answer.command_json)).toMatchObject({ guild_id: GUILD, version: created.version });

    await expect(invocable({ guild_id: OTHER_GUILD, command_id: id })).rejects.toEqual(unknownCommand);
    await expect(invocable({ guild_id: '', command_id: id })).rejects.toEqual(unknownCommand);
  });

  it("never finds another app's command, global or in the guild", async () => {
    const global = await create(OTHER_APP, '', { name: 'theirs', description: 'Not yours' });
    const local = await create(OTHER_APP, GUILD, { name: 'theirs', description: 'Not yours' });
    for (const command of [global, local]) {
      await expect(invocable({ guild_id: GUILD, command_id: command.id as string })).rejects.toEqual(
        unknownCommand,
      );
    }
    await expect(invocable({ guild_id: GUILD, command_id: '1500000000000000999' })).rejects.toEqual(
      unknownCommand,
    );
  });

  it('answers the current version, and the version of the last rename as named_version', async () => {
    const created = await create(APP, '', { name: 'old-name', description: 'Before' });
    const id = created.id as string;
    const edit = (body: object) =>
      commands.EditCommand({
        application_id: APP,
        guild_id: '',
        command_id: id,
        body_json: JSON.stringify(body),
        application_flags: 0,
      });

    await edit({ description: 'After' });
    const described = await invocable({ command_id: id });
    const version = (JSON.parse(described.command_json) as { version: string }).version;
    expect(version).not.toBe(created.version);
    expect(described.named_version).toBe(id);

    await edit({ name: 'new-name' });
    const renamed = await invocable({ command_id: id });
    const command = JSON.parse(renamed.command_json) as { version: string; name: string };
    expect(command.name).toBe('new-name');
    expect(command.version).not.toBe(version);
    expect(renamed.named_version).toBe(command.version);
  });

  it('answers an entry point with its handler', async () => {
    const ensured = await commands.EnsureEntryPoint({
      application_id: APP,
      application_flags: EMBEDDED_FLAG,
    });
    const entryPoint = JSON.parse(ensured.command_json as string) as { id: string };

    const answer = await invocable({ guild_id: GUILD, command_id: entryPoint.id });
    expect(JSON.parse(answer.command_json)).toEqual(entryPoint);
    expect(entryPoint).toMatchObject({ type: 4, name: 'Launch', handler: 2 });
  });

  it('answers 50035 at the field for ids that are no snowflakes', async () => {
    const cases: [Partial<commandRegistry.GetInvocableCommandRequest__Output>, string][] = [
      [{ application_id: 'x', command_id: '1' }, 'application_id'],
      [{ guild_id: '9223372036854775808', command_id: '1' }, 'guild_id'],
      [{ command_id: '' }, 'command_id'],
    ];
    for (const [request, field] of cases) {
      await expect(invocable(request)).rejects.toEqual(
        expect.objectContaining({ httpStatus: 400, code: 50035, errors: { [field]: expect.anything() } }),
      );
    }
  });
});
