import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadPermissionsProto, type permissions } from '@acs/protos';
import { createGrpcServer, createLogger, type GrpcServer } from '@acs/service-kit';
import { createAuthenticator } from '../src/auth/create-authenticator';
import { closeBackendClients, createBackendClients, type BackendClients } from '../src/backends';
import { createApp } from '../src/create-app';
import { startFakeOAuth, type FakeOAuth } from './support/fake-oauth-server';

// PUT …/commands/{command}/permissions through the HTTP app, with oauth and permissions
// stood in for at the network edge: a write for an app not installed in the guild is
// refused (403 / 50001) before permissions is asked, for app-level and command entries.

const APP = '1300000000000000001';
const INSTALLED_GUILD = '1300000000000000100';
const OTHER_GUILD = '1300000000000000200';
const COMMAND = '1300000000000000300';
const TOKEN = 'manager-access-token';

let oauth: FakeOAuth;
let permissionsServer: GrpcServer;
let backends: BackendClients;
let http: Server;
let baseUrl: string;
/** Every UpdateCommandPermissions request permissions received. */
const writes: permissions.UpdateCommandPermissionsRequest__Output[] = [];

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
        },
      },
    ],
    isReady: async () => true,
  });
  const permissionsPort = await permissionsServer.listen('127.0.0.1:0');
  backends = createBackendClients({
    registry: '127.0.0.1:1',
    oauth: `127.0.0.1:${oauth.port}`,
    permissions: `127.0.0.1:${permissionsPort}`,
    dispatcher: '127.0.0.1:1',
  });
  const app = createApp({
    backends,
    auth: createAuthenticator(backends.oauth, { maxCacheSeconds: 30, unknownTokenSeconds: 10 }),
    logger: createLogger('api-gateway', 'silent'),
    adminToken: 'admin-token-of-the-test-0123456789',
    maxBodyBytes: 1024 * 1024,
    requestDeadlineMs: 10_000,
    rateLimits: { globalPerSecond: 0, routeLimit: 0, routeWindowSeconds: 1 },
    invalidRequestLimits: { limit: 0, windowSeconds: 600 },
    trustProxy: false,
    isDraining: () => false,
  });
  http = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v10`;
});

afterAll(async () => {
  await new Promise((resolve) => http?.close(resolve));
  if (backends) closeBackendClients(backends);
  await permissionsServer?.drain();
  await oauth?.close();
});

beforeEach(() => {
  writes.length = 0;
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
  ['the app-level entry', APP],
  ['a command entry', COMMAND],
])('passes %s of an installed app on to permissions', async (_name, id) => {
  expect((await put(INSTALLED_GUILD, id)).status).toBe(200);
  expect(writes).toMatchObject([{ application_id: APP, guild_id: INSTALLED_GUILD, command_id: id }]);
});
