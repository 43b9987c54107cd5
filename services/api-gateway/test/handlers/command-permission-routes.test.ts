import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  loadCommandRegistryProto,
  loadPermissionsProto,
  type commandRegistry,
  type permissions,
} from '@acs/protos';
import { createGrpcServer, createLogger, type GrpcServer } from '@acs/service-kit';
import { createAuthenticator } from '../../src/auth/create-authenticator';
import {
  closeBackendClients,
  createBackendClients,
  type BackendClients,
} from '../../src/clients/backend-clients';
import { createPeerClients } from '../../src/clients/peer-clients';
import { createServer } from '../../src/create-server';
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth-server';

// …/commands[/{command}]/permissions through the HTTP server, with oauth, command-registry
// and permissions stood in for at the network edge: a write for an app not installed in
// the guild is refused (403 / 50001) before permissions is asked, for app-level and
// command entries; command-registry is asked which commands exist and permissions is
// given its answer (permissions calls no other service).

const APP = '1300000000000000001';
const INSTALLED_GUILD = '1300000000000000100';
const OTHER_GUILD = '1300000000000000200';
const COMMAND = '1300000000000000300';
const OTHER_COMMAND = '1300000000000000301';
const TOKEN = 'manager-access-token';

let oauth: FakeOAuth;
let permissionsServer: GrpcServer;
let registryServer: GrpcServer;
let backends: BackendClients;
let http: Server;
let baseUrl: string;
/** Every UpdateCommandPermissions request permissions received. */
const writes: permissions.UpdateCommandPermissionsRequest__Output[] = [];
/** Every read request permissions received (List and Get). */
const reads: (
  permissions.ListCommandPermissionsRequest__Output | permissions.GetCommandPermissionsRequest__Output
)[] = [];

/** The app's commands command-registry has in the installed guild. */
const REGISTERED: commandRegistry.ResolvedCommand[] = [
  {
    id: COMMAND,
    name: 'ban',
    default_member_permissions: '',
    guild_id: '',
    version: '10',
    named_version: '9',
  },
  {
    id: OTHER_COMMAND,
    name: 'kick',
    default_member_permissions: '2',
    guild_id: INSTALLED_GUILD,
    version: '12',
    named_version: '12',
  },
];
/** Each command as permissions is given it. */
const AS_REGISTERED = {
  [COMMAND]: {
    application_id: APP,
    command_id: COMMAND,
    name: 'ban',
    default_member_permissions: '',
    version: '10',
    named_version: '9',
  },
  [OTHER_COMMAND]: {
    application_id: APP,
    command_id: OTHER_COMMAND,
    name: 'kick',
    default_member_permissions: '2',
    version: '12',
    named_version: '12',
  },
};

beforeAll(async () => {
  oauth = await startFakeOAuth();
  oauth.tokens.set(TOKEN, {
    kind: 'PRINCIPAL_KIND_BEARER',
    application_id: APP,
    user_id: '1300000000000000002',
    scopes: ['applications.commands.permissions.update'],
    application_flags: 0,
    user_locale: '',
    cache_seconds: 60,
  });
  oauth.installations.add(`${APP}:${INSTALLED_GUILD}`);
  permissionsServer = createGrpcServer({
    logger: createLogger('fake-permissions', 'silent'),
    services: [
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: loadPermissionsProto().acs.permissions.v1.PermissionsService.service,
        handlers: {
          async UpdateCommandPermissions(request: permissions.UpdateCommandPermissionsRequest__Output) {
            writes.push(request);
            return { permissions_json: '{}' };
          },
          async ListCommandPermissions(request: permissions.ListCommandPermissionsRequest__Output) {
            reads.push(request);
            return { permissions_json: '[]' };
          },
          async GetCommandPermissions(request: permissions.GetCommandPermissionsRequest__Output) {
            reads.push(request);
            return { permissions_json: '{}' };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const permissionsPort = await permissionsServer.listen('127.0.0.1:0');
  registryServer = createGrpcServer({
    logger: createLogger('fake-command-registry', 'silent'),
    services: [
      {
        name: 'acs.command_registry.v1.CommandRegistryService',
        definition: loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService.service,
        handlers: {
          async ResolveCommands(request: commandRegistry.ResolveCommandsRequest__Output) {
            const here = request.application_id === APP && request.guild_id === INSTALLED_GUILD;
            const asked = (c: commandRegistry.ResolvedCommand) =>
              request.all || request.command_ids.includes(c.id ?? '');
            return { commands: here ? REGISTERED.filter(asked) : [] };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const registryPort = await registryServer.listen('127.0.0.1:0');
  backends = createBackendClients({
    registry: `127.0.0.1:${registryPort}`,
    oauth: `127.0.0.1:${oauth.port}`,
    permissions: `127.0.0.1:${permissionsPort}`,
    dispatcher: '127.0.0.1:1',
    interactions: '127.0.0.1:1',
    lobby: '127.0.0.1:1',
  });
  const clients = createPeerClients(backends);
  http = createServer({
    clients,
    auth: createAuthenticator(clients.oauth, { maxCacheSeconds: 30, unknownTokenSeconds: 10 }),
    logger: createLogger('api-gateway', 'silent'),
    adminToken: 'admin-token-of-the-test-0123456789',
    maxBodyBytes: 1024 * 1024,
    requestDeadlineMs: 10_000,
    rateLimits: { globalPerSecond: 0, routeLimit: 0, routeWindowSeconds: 1 },
    invalidRequestLimits: { limit: 0, windowSeconds: 600 },
    trustProxy: false,
    isDraining: () => false,
    httpTimeouts: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 },
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v10`;
});

afterAll(async () => {
  await new Promise((resolve) => http?.close(resolve));
  if (backends) closeBackendClients(backends);
  await permissionsServer?.drain();
  await registryServer?.drain();
  await oauth?.close();
});

beforeEach(() => {
  writes.length = 0;
  reads.length = 0;
});

async function put(guildId: string, commandId: string) {
  const response = await fetch(
    `${baseUrl}/applications/${APP}/guilds/${guildId}/commands/${commandId}/permissions`,
    {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ permissions: [{ id: guildId, type: 1, permission: false }] }),
    },
  );
  return { status: response.status, body: (await response.json()) as unknown };
}

it.each([
  ['the app-level entry', APP],
  ['a command entry', COMMAND],
])('refuses %s of an app not installed in the guild with 403 / 50001, writing nothing', async (_name, id) => {
  expect(await put(OTHER_GUILD, id)).toEqual({
    status: 403,
    body: { code: 50001, message: 'Missing Access' },
  });
  expect(writes).toEqual([]);
});

it.each([
  ['the app-level entry', APP, []],
  ['a command entry', COMMAND, [AS_REGISTERED[COMMAND]]],
  ['an entry of an unknown command', '1300000000000000399', []],
])(
  "passes %s of an installed app on to permissions, with the registry's answer",
  async (_name, id, commands) => {
    expect((await put(INSTALLED_GUILD, id)).status).toBe(200);
    expect(writes).toEqual([
      expect.objectContaining({ application_id: APP, guild_id: INSTALLED_GUILD, command_id: id, commands }),
    ]);
  },
);

it('gives permissions every command of the app in the guild for the list, the named one for a GET, as the registry has them', async () => {
  const read = (path: string) =>
    fetch(`${baseUrl}/applications/${APP}/guilds/${INSTALLED_GUILD}/commands${path}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
  expect((await read('/permissions')).status).toBe(200);
  expect((await read(`/${OTHER_COMMAND}/permissions`)).status).toBe(200);
  expect((await read(`/${APP}/permissions`)).status).toBe(200);
  expect(reads).toEqual([
    expect.objectContaining({ commands: [AS_REGISTERED[COMMAND], AS_REGISTERED[OTHER_COMMAND]] }),
    expect.objectContaining({ command_id: OTHER_COMMAND, commands: [AS_REGISTERED[OTHER_COMMAND]] }),
    expect.objectContaining({ command_id: APP, commands: [] }),
  ]);
});
