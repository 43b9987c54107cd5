import type { OAuthClient } from '../../src/clients/oauth-client';
import { createCommandHandlers } from '../../src/handlers/command-handlers';
import { createCommandIndexHandlers } from '../../src/handlers/command-index-handlers';
import { createInvocationHandlers } from '../../src/handlers/invocation-handlers';
import { createResolveHandlers } from '../../src/handlers/resolve-handlers';
import { CommandLookup } from '../../src/store/command-lookup';
import { openStore, type OpenStore } from '../store/open-store';

// The registry checks the ids of every RPC itself: a caller other than api-gateway (or a
// gateway with a bug) gets 50035, never a database error, for an id a bigint cannot hold.

let ctx: OpenStore;
let handlers: ReturnType<typeof createCommandHandlers> &
  ReturnType<typeof createResolveHandlers> &
  ReturnType<typeof createCommandIndexHandlers> &
  ReturnType<typeof createInvocationHandlers>;

beforeAll(async () => {
  ctx = await openStore();
  // Global scopes never ask oauth; ids are refused before any guild scope would.
  const unusedOauth = {} as OAuthClient;
  const lookup = new CommandLookup(ctx.pool);
  handlers = {
    ...createCommandHandlers({ store: ctx.store, oauth: unusedOauth }),
    ...createResolveHandlers({ lookup }),
    ...createCommandIndexHandlers({ lookup, oauth: unusedOauth }),
    ...createInvocationHandlers({ lookup }),
  };
});
afterAll(async () => ctx.close());

const APP = '1300000000000000001';
const TOO_LARGE = ['9223372036854775808', '18446744073709551615'];

function invalidAt(field: string, code: string) {
  return expect.objectContaining({
    httpStatus: 400,
    code: 50035,
    errors: { [field]: { _errors: [expect.objectContaining({ code })] } },
  });
}

describe('ids of RPCs', () => {
  it.each(TOO_LARGE)('answer %s as 50035 NUMBER_TYPE_MAX in every id field', async (id) => {
    const body_json = JSON.stringify({ name: 'ping', description: 'Pong' });
    await expect(
      handlers.ListCommands({ application_id: id, guild_id: '', with_localizations: false, locale: '' }),
    ).rejects.toEqual(invalidAt('application_id', 'NUMBER_TYPE_MAX'));
    await expect(
      handlers.CreateCommand({ application_id: APP, guild_id: id, body_json, application_flags: 0 }),
    ).rejects.toEqual(invalidAt('guild_id', 'NUMBER_TYPE_MAX'));
    await expect(handlers.GetCommand({ application_id: APP, guild_id: '', command_id: id })).rejects.toEqual(
      invalidAt('command_id', 'NUMBER_TYPE_MAX'),
    );
    await expect(
      handlers.EditCommand({
        application_id: APP,
        guild_id: '',
        command_id: id,
        body_json,
        application_flags: 0,
      }),
    ).rejects.toEqual(invalidAt('command_id', 'NUMBER_TYPE_MAX'));
    await expect(
      handlers.DeleteCommand({ application_id: APP, guild_id: '', command_id: id }),
    ).rejects.toEqual(invalidAt('command_id', 'NUMBER_TYPE_MAX'));
    await expect(
      handlers.BulkOverwriteCommands({
        application_id: id,
        guild_id: '',
        body_json: '[]',
        application_flags: 0,
      }),
    ).rejects.toEqual(invalidAt('application_id', 'NUMBER_TYPE_MAX'));
    await expect(
      handlers.ResolveCommands({ application_id: APP, guild_id: '1', command_ids: ['1', id], all: false }),
    ).rejects.toEqual(invalidAt('command_ids', 'NUMBER_TYPE_MAX'));
    await expect(handlers.ListGuildCommandIndex({ guild_id: id, locale: '' })).rejects.toEqual(
      invalidAt('guild_id', 'NUMBER_TYPE_MAX'),
    );
    await expect(handlers.EnsureEntryPoint({ application_id: id, application_flags: 0 })).rejects.toEqual(
      invalidAt('application_id', 'NUMBER_TYPE_MAX'),
    );
    await expect(
      handlers.GetInvocableCommand({ application_id: APP, guild_id: '', command_id: id }),
    ).rejects.toEqual(invalidAt('command_id', 'NUMBER_TYPE_MAX'));
  });

  it('answer text that is no id as 50035 NUMBER_TYPE_COERCE', async () => {
    await expect(
      handlers.GetCommand({ application_id: APP, guild_id: '', command_id: 'abc' }),
    ).rejects.toEqual(invalidAt('command_id', 'NUMBER_TYPE_COERCE'));
  });

  it('serve the largest id a bigint holds as an unknown command', async () => {
    await expect(
      handlers.GetCommand({ application_id: APP, guild_id: '', command_id: '9223372036854775807' }),
    ).rejects.toEqual(expect.objectContaining({ httpStatus: 404, code: 10063 }));
    await expect(
      handlers.GetInvocableCommand({
        application_id: APP,
        guild_id: '9223372036854775807',
        command_id: '9223372036854775807',
      }),
    ).rejects.toEqual(expect.objectContaining({ httpStatus: 404, code: 10063 }));
  });
});
