import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import {
  loadCommandRegistryProto,
  loadDispatcherProto,
  loadInteractionsProto,
  loadLobbyProto,
  loadPermissionsProto,
} from '@acs/protos';
import { createGrpcClient, createGrpcServer, createLogger, type GrpcServer } from '@acs/service-kit';
import { createAuthenticator } from '../src/auth/create-authenticator';
import { createPeerClients } from '../src/clients/peer-clients';
import { createServer } from '../src/create-server';
import { startFakeOAuth, type FakeOAuth } from './support/fake-oauth-server';

/**
 * The gateway's whole HTTP server on a real port, against gRPC stand-ins at the
 * network edge: oauth (tokens), a dispatcher whose GetGateway takes as long as the test
 * says, and a registry, permissions and interactions service that are down (their port
 * refuses).
 */
let oauth: FakeOAuth;
let dispatcher: GrpcServer;
let stopped: GrpcServer;
let server: Server;
let url: string;
let closeClients: () => void;
let gatewayDelayMs = 0;
const logLines: Array<{ level: number; msg: string }> = [];

const APP_ID = '1300000000000000001';
// Well above a call to a refused port or a prompt peer on a busy machine, well below the
// slow peer's delay and the call's own 5 s.
const REQUEST_DEADLINE_MS = 1_000;

beforeAll(async () => {
  oauth = await startFakeOAuth();
  oauth.tokens.set('valid.bot.token', {
    kind: 'PRINCIPAL_KIND_BOT',
    application_id: APP_ID,
    user_id: APP_ID,
    scopes: [],
    application_flags: 0,
    user_locale: '',
    cache_seconds: 60,
  });
  const dispatcherProto = loadDispatcherProto().acs.dispatcher.v1;
  dispatcher = createGrpcServer({
    logger: createLogger('fake-dispatcher', 'silent'),
    isReady: async () => true,
    services: [
      {
        name: 'acs.dispatcher.v1.DispatcherService',
        definition: dispatcherProto.DispatcherService.service,
        handlers: {
          GetGateway: async () => {
            // Unref'd: the caller stops waiting long before, and so may the test run.
            await new Promise((resolve) => setTimeout(resolve, gatewayDelayMs).unref());
            return { url: 'ws://gateway.test', shards: 1 };
          },
        },
      },
    ],
  });
  const dispatcherPort = await dispatcher.listen('127.0.0.1:0');
  // A port that listened once and refuses now: the registry and permissions are down.
  stopped = createGrpcServer({
    logger: createLogger('down', 'silent'),
    isReady: async () => true,
    services: [],
  });
  const downPort = await stopped.listen('127.0.0.1:0');
  await stopped.drain();

  const logger = pino({ level: 'info' }, {
    write: (line: string) => logLines.push(JSON.parse(line) as { level: number; msg: string }),
  } as pino.DestinationStream);
  const backends = {
    oauth: oauth.client,
    dispatcher: createGrpcClient(dispatcherProto.DispatcherService, `127.0.0.1:${dispatcherPort}`),
    registry: createGrpcClient(
      loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService,
      `127.0.0.1:${downPort}`,
    ),
    permissions: createGrpcClient(
      loadPermissionsProto().acs.permissions.v1.PermissionsService,
      `127.0.0.1:${downPort}`,
    ),
    interactions: createGrpcClient(
      loadInteractionsProto().acs.interactions.v1.InteractionsService,
      `127.0.0.1:${downPort}`,
    ),
    lobby: createGrpcClient(loadLobbyProto().acs.lobby.v1.LobbyService, `127.0.0.1:${downPort}`),
  };
  closeClients = () => Object.values(backends).forEach((client) => client.close());
  const clients = createPeerClients(backends);
  server = createServer({
    clients,
    auth: createAuthenticator(clients.oauth, { maxCacheSeconds: 30, unknownTokenSeconds: 10 }),
    logger,
    adminToken: 'an-admin-token-of-the-test',
    maxBodyBytes: 1024,
    requestDeadlineMs: REQUEST_DEADLINE_MS,
    rateLimits: { globalPerSecond: 0, routeLimit: 0, routeWindowSeconds: 1 },
    invalidRequestLimits: { limit: 0, windowSeconds: 1 },
    trustProxy: false,
    isDraining: () => false,
    httpTimeouts: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  closeClients();
  await oauth.close();
  await dispatcher.drain();
});

beforeEach(() => {
  gatewayDelayMs = 0;
  logLines.length = 0;
});

const commands = () =>
  fetch(`${url}/api/v10/applications/${APP_ID}/commands`, {
    headers: { authorization: 'Bot valid.bot.token' },
  });

describe('every answer', () => {
  it('carries X-Content-Type-Options: nosniff, and Cache-Control: no-store on API and admin answers', async () => {
    const answers = {
      health: await fetch(`${url}/healthz`),
      gateway: await fetch(`${url}/api/v10/gateway`),
      unknownRoute: await fetch(`${url}/api/v10/nowhere`),
      unauthorized: await fetch(`${url}/api/v10/users/@me`),
      admin: await fetch(`${url}/admin/users`, { method: 'POST' }),
      outside: await fetch(`${url}/elsewhere`),
    };
    expect(Object.values(answers).map((a) => a.status)).toEqual([200, 200, 404, 401, 401, 404]);
    for (const answer of Object.values(answers)) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    for (const name of ['gateway', 'unknownRoute', 'unauthorized', 'admin'] as const) {
      expect(answers[name].headers.get('cache-control')).toBe('no-store');
    }
    expect(answers.health.headers.get('cache-control')).toBeNull();
  });
});

describe('a service that is down or slow', () => {
  it('answers 503 with Discord’s body, and logs one line however often it happens', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, commands));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(503));
    expect(await answers[0]!.json()).toEqual({ code: 0, message: '503: Service Unavailable' });
    expect(answers[0]!.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answers[0]!.headers.get('cache-control')).toBe('no-store');
    const written = logLines.filter((line) => line.level >= 40);
    expect(written).toHaveLength(1);
    expect(written[0]!.msg).toBe('backend unavailable');
  });

  it('answers 504 once the request’s budget is spent, not after the call’s own 5 s', async () => {
    gatewayDelayMs = 3_000;
    const before = Date.now();
    const answer = await fetch(`${url}/api/v10/gateway`);
    expect(answer.status).toBe(504);
    expect(await answer.json()).toEqual({ code: 0, message: '504: Gateway Timeout' });
    expect(Date.now() - before).toBeLessThan(REQUEST_DEADLINE_MS + 700);
  });
});
