import type { commandRegistry } from '@acs/protos';
import { createResolveHandlers } from '../../src/handlers/resolve-handlers';
import { CommandLookup } from '../../src/store/command-lookup';
import { openStore, slash, type OpenStore } from '../store/open-store';

// ResolveCommands as its callers see it (api-gateway asks it, then passes the answer to
// permissions): the ids asked for, or with `all` every command of the app in the guild.

const APP = '300';
const GUILD = '400';

let ctx: OpenStore;
let handlers: ReturnType<typeof createResolveHandlers>;

beforeAll(async () => {
  ctx = await openStore();
  handlers = createResolveHandlers({ lookup: new CommandLookup(ctx.pool) });
});

afterAll(async () => {
  await ctx?.close();
});

const resolve = (request: Partial<commandRegistry.ResolveCommandsRequest__Output>) =>
  handlers.ResolveCommands({ application_id: APP, guild_id: GUILD, command_ids: [], all: false, ...request });

it('answers the ids asked for, or with `all` every command of the app in the guild', async () => {
  const global = await ctx.store.upsert({ applicationId: APP, guildId: '' }, slash('global'));
  const local = await ctx.store.upsert({ applicationId: APP, guildId: GUILD }, slash('local'));
  await ctx.store.upsert({ applicationId: APP, guildId: '401' }, slash('elsewhere'));

  const asResolved = (stored: typeof global.stored, name: string, guildId: string) => ({
    id: stored.id,
    application_id: APP,
    name,
    default_member_permissions: '',
    guild_id: guildId,
    version: stored.version,
    named_version: stored.id,
  });
  const byName = (a: { name?: string }, b: { name?: string }) => (a.name ?? '').localeCompare(b.name ?? '');

  expect((await resolve({ command_ids: [local.stored.id, '999'] })).commands).toEqual([
    asResolved(local.stored, 'local', GUILD),
  ]);
  expect((await resolve({})).commands).toEqual([]);
  expect((await resolve({ all: true, command_ids: [local.stored.id] })).commands.sort(byName)).toEqual([
    asResolved(global.stored, 'global', ''),
    asResolved(local.stored, 'local', GUILD),
  ]);
});
