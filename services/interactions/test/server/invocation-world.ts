import { AttachmentStore } from '../../src/store/attachment-rows';
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { UnknownResourceError } from '@acs/discord-errors';
import { parseAddressPolicy, WebhookPoster, type AddressPolicy } from '@acs/outbound';
import {
  loadCommandRegistryProto,
  loadInteractionsProto,
  loadOAuthProto,
  loadPermissionsProto,
  type commandRegistry,
  type interactions,
  type oauth,
  type permissions,
} from '@acs/protos';
import {
  callUnary,
  createGrpcClient,
  createGrpcServer,
  createLogger,
  fromGrpcError,
  serviceDatabaseUrl,
  type GrpcServer,
} from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { createCommandRegistryClient } from '../../src/clients/command-registry-client';
import { createOAuthClient } from '../../src/clients/oauth-client';
import { createPermissionsClient } from '../../src/clients/permissions-client';
import { SearchStore } from '../../src/store/search-store';
import { DB_SCHEMA } from '../../src/config';
import { createServer } from '../../src/create-server';
import { FollowOnSourcesStore } from '../../src/store/follow-on-sources-store';
import { DeadlineKeeper } from '../../src/delivery/deadline-keeper';
import { HttpDelivery, INTERACTIONS_USER_AGENT } from '../../src/delivery/http-delivery';
import { OutcomeListener } from '../../src/delivery/outcome-listener';
import { OutcomeWaiter } from '../../src/delivery/outcome-waiter';
import { ApplicationFactsMemo } from '../../src/handlers/application-facts';
import { createResponder } from '../../src/handlers/responder';
import { InteractionStore } from '../../src/store/interaction-store';
import { MessageStore } from '../../src/store/message-store';
import { ResponseStore } from '../../src/store/response-store';
import { TraceStore } from '../../src/store/trace-store';

import { PinStore } from '../../src/store/pin-store';
import { ChannelMessageStore } from '../../src/store/channel-message-store';
import { ReactionStore } from '../../src/store/reaction-store';
import { AutoModStore } from '../../src/store/automod-store';
import { TEST_SIGNER } from '../support/test-signer';
/** A parsed JSON value, read freely by the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

// The world the fake peers describe: USER in GUILD's CHANNEL, where every app is installed.
export const GUILD = '1500000000000000100';
export const CHANNEL = '1500000000000000200';
export const USER = {
  id: '1500000000000000010',
  username: 'alice',
  discriminator: '0',
  avatar: null,
  global_name: 'Alice',
};
export const ALL_PERMISSIONS = ((1n << 51n) - 1n).toString();

/** An application the fake oauth knows, with the Ed25519 key pair it signs with. */
export interface FakeApp {
  id: string;
  endpoint: string | null;
  flags: number;
  privateKeyPem: string;
  publicKey: KeyObject;
  botUser: Record<string, unknown>;
}

/** A command the fake command-registry knows. */
export interface FakeCommand {
  json: Record<string, unknown>;
  guildId: string | null;
}

/** Peers' answers, changed by tests as they need. */
export interface World {
  apps: Map<string, FakeApp>;
  commands: Map<string, FakeCommand>;
  /** How many times each peer was asked. */
  calls: { oauth: number; registry: number; permissions: number };
}

let appCount = 0;

/** A new application (no endpoint unless given). */
export function makeApp(world: World, endpoint: string | null = null, flags = 0): FakeApp {
  const id = String(1500000000000001000n + BigInt(++appCount));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const app: FakeApp = {
    id,
    endpoint,
    flags,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey,
    botUser: {
      id,
      username: `bot${appCount}`,
      discriminator: '0000',
      avatar: null,
      bot: true,
      global_name: null,
    },
  };
  world.apps.set(id, app);
  return app;
}

let commandCount = 0;

/** A new global command of `app` (CHAT_INPUT `ping` unless overridden). */
export function makeCommand(world: World, app: FakeApp, overrides: Record<string, unknown> = {}) {
  const id = String(1500000000000002000n + BigInt(++commandCount));
  const json = {
    id,
    application_id: app.id,
    version: id,
    default_member_permissions: null,
    type: 1,
    name: 'ping',
    description: 'Replies with pong',
    dm_permission: true,
    contexts: null,
    integration_types: [0],
    nsfw: false,
    ...overrides,
  };
  world.commands.set(id, { json, guildId: null });
  return json;
}

/** The fake oauth, command-registry and permissions of `world`, on one server. */
function servePeers(world: World): GrpcServer {
  return createGrpcServer({
    logger: createLogger('fake-peers', 'silent'),
    isReady: async () => true,
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: loadOAuthProto().acs.oauth.v1.OAuthService.service,
        handlers: {
          async DescribeInvocation(
            request: oauth.DescribeInvocationRequest__Output,
          ): Promise<oauth.DescribeInvocationResponse> {
            world.calls.oauth += 1;
            const app = world.apps.get(request.application_id);
            if (!app) throw new UnknownResourceError(10002, 'Unknown Application');
            return {
              application_json: JSON.stringify({ id: app.id, name: 'App', flags: app.flags }),
              application_flags: app.flags,
              interactions_endpoint_url: app.endpoint ?? '',
              verify_key: app.publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('hex'),
              signing_key_pem: app.privateKeyPem,
              bot_user_json: JSON.stringify(app.botUser),
              user_json: JSON.stringify(USER),
              user_locale: 'en-US',
              guild_installed: request.guild_id === GUILD,
              guild_scopes: request.guild_id === GUILD ? ['bot', 'applications.commands'] : [],
              user_installed: false,
              resolved_users_json: '{}',
              integration_types: [0],
            };
          },
        },
      },
      {
        name: 'acs.command_registry.v1.CommandRegistryService',
        definition: loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService.service,
        handlers: {
          async GetInvocableCommand(
            request: commandRegistry.GetInvocableCommandRequest__Output,
          ): Promise<commandRegistry.GetInvocableCommandResponse> {
            world.calls.registry += 1;
            const found = world.commands.get(request.command_id);
            if (!found || found.json.application_id !== request.application_id) {
              throw new UnknownResourceError(10063, 'Unknown application command');
            }
            return {
              command_json: JSON.stringify(found.json),
              guild_id: found.guildId ?? '',
              named_version: String(found.json.version),
            };
          },
        },
      },
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: loadPermissionsProto().acs.permissions.v1.PermissionsService.service,
        handlers: {
          async DescribeInvocationContext(
            request: permissions.DescribeInvocationContextRequest__Output,
          ): Promise<permissions.DescribeInvocationContextResponse> {
            world.calls.permissions += 1;
            if (request.channel_id !== CHANNEL || request.guild_id !== GUILD) {
              throw new UnknownResourceError(10003, 'Unknown Channel');
            }
            return {
              channel_json: JSON.stringify({
                id: CHANNEL,
                type: 0,
                guild_id: GUILD,
                name: 'general',
                nsfw: false,
              }),
              guild_json: JSON.stringify({
                id: GUILD,
                name: 'Guild',
                features: [],
                preferred_locale: 'en-US',
              }),
              member_json: JSON.stringify({ roles: [], nick: null, permissions: ALL_PERMISSIONS }),
              user_permissions: ALL_PERMISSIONS,
              app_permissions: '2048',
              bot_is_member: true,
              allowed: true,
              reason: 'administrator',
              resolved_members_json: '{}',
              resolved_roles_json: '{}',
              resolved_channels_json: '{}',
              recipient_ids: [],
            };
          },
          async DescribeChannelAccess(): Promise<permissions.DescribeChannelAccessResponse> {
            throw new UnknownResourceError(10003, 'Unknown Channel');
          },
        },
      },
    ],
  });
}

/** One request an endpoint received, and whether its signature verified with the app's public key. */
export interface Received {
  body: Record<string, Json>;
  headers: http.IncomingHttpHeaders;
  verified: boolean;
}

/** A real HTTP interactions endpoint of `app`: checks each signature with node:crypto's Ed25519. */
export class Endpoint {
  readonly received: Received[] = [];
  /** Where it listens, once started. */
  url = '';
  answer: (interaction: Record<string, Json>) => { status: number; body?: unknown } = () => ({ status: 202 });
  private server: http.Server | undefined;

  constructor(private readonly publicKey: () => KeyObject) {}

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const timestamp = String(request.headers['x-signature-timestamp'] ?? '');
        const signature = Buffer.from(String(request.headers['x-signature-ed25519'] ?? ''), 'hex');
        const verified = verify(null, Buffer.from(timestamp + raw), this.publicKey(), signature);
        const body = JSON.parse(raw) as Record<string, Json>;
        this.received.push({ body, headers: request.headers, verified });
        const answer = this.answer(body);
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/interactions`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** The interactions server on a fresh database, with fake peers and a real outbound poster. */
export interface InvocationServer {
  world: World;
  pool: Pool;
  db: TestDatabase;
  deadlines: DeadlineKeeper;
  /** Calls an RPC; a service error rejects with the DiscordError it carries. */
  call<Res>(method: keyof interactions.InteractionsServiceClient, request: object): Promise<Res>;
  close(): Promise<void>;
}

/** Starts interactions as start-service wires it, against fake peers. */
export async function startInvocationServer(
  options: { deadlineMs?: number; sweepIntervalMs?: number; policy?: AddressPolicy } = {},
): Promise<InvocationServer> {
  const world: World = {
    apps: new Map(),
    commands: new Map(),
    calls: { oauth: 0, registry: 0, permissions: 0 },
  };
  const peers = servePeers(world);
  const peersAddress = `127.0.0.1:${await peers.listen('127.0.0.1:0')}`;
  const db = await createTestDatabase(['interactions']);
  const pool = new Pool({ connectionString: serviceDatabaseUrl(db.url, DB_SCHEMA), max: 20 });
  pool.on('error', () => undefined);
  const logger = createLogger('interactions-test', 'silent');
  const ids = createSnowflakeGenerator({ workerId: 6, processId: 1 });
  const windows = {
    deadlineMs: options.deadlineMs ?? 1500,
    tokenTtlSeconds: 900,
    sweepIntervalMs: options.sweepIntervalMs ?? 200,
  };
  const oauthGrpc = createGrpcClient(loadOAuthProto().acs.oauth.v1.OAuthService, peersAddress);
  const registryGrpc = createGrpcClient(
    loadCommandRegistryProto().acs.command_registry.v1.CommandRegistryService,
    peersAddress,
  );
  const permissionsGrpc = createGrpcClient(
    loadPermissionsProto().acs.permissions.v1.PermissionsService,
    peersAddress,
  );
  const oauthClient = createOAuthClient(oauthGrpc);
  const store = new InteractionStore(pool, windows);
  const responses = new ResponseStore(pool, ids, TEST_SIGNER);
  const traces = new TraceStore(pool);
  const messages = new MessageStore(pool, ids, TEST_SIGNER);
  const applications = new ApplicationFactsMemo(windows.deadlineMs);
  const responder = createResponder({ responses, oauth: oauthClient, applications, traces });
  const poster = new WebhookPoster({
    policy: options.policy ?? parseAddressPolicy('loopback'),
    timeoutMs: windows.deadlineMs,
    maxSocketsPerDestination: 8,
    userAgent: INTERACTIONS_USER_AGENT,
  });
  const httpDelivery = new HttpDelivery({
    poster,
    responder,
    fail: (id, failure) => store.failIfPending(id, failure, false),
    noteDelivery: (id, delivery, sentAt) => traces.noteDelivery(id, delivery, sentAt),
    logger,
  });
  const deadlines = new DeadlineKeeper(store, { ...windows, logger });
  const listener = new OutcomeListener(pool, logger);
  await listener.start();
  listener.subscribe((id) => deadlines.forget(id));
  deadlines.start();
  const server = createServer({
    logger,
    oauth: oauthClient,
    registry: createCommandRegistryClient(registryGrpc),
    permissions: createPermissionsClient(permissionsGrpc),
    interactions: store,
    sources: new FollowOnSourcesStore(pool),
    attachments: new AttachmentStore(pool),
    ids,
    applications,
    http: httpDelivery,
    deadlines,
    outcomes: new OutcomeWaiter(listener, store),
    windows,
    responder,
    responses,
    messages,
    traces,
    pins: new PinStore(pool),
    channelMessages: new ChannelMessageStore(pool, ids, TEST_SIGNER),
    signer: TEST_SIGNER,
    reactions: new ReactionStore(pool),
    search: new SearchStore(pool),
    searchIndexDelayMs: 0,
    automod: new AutoModStore(pool, ids),
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  const client = createGrpcClient(
    loadInteractionsProto().acs.interactions.v1.InteractionsService,
    `127.0.0.1:${port}`,
  );
  return {
    world,
    pool,
    db,
    deadlines,
    call: <Res>(method: keyof interactions.InteractionsServiceClient, request: object) =>
      callUnary<object, Res>(client, client[method] as never, request, 20_000).catch((error: unknown) => {
        throw fromGrpcError(error) ?? error;
      }),
    async close() {
      client.close();
      await server.drain();
      await httpDelivery.drain();
      await deadlines.stop();
      await listener.stop();
      poster.close();
      for (const c of [oauthGrpc, registryGrpc, permissionsGrpc]) c.close();
      await peers.drain();
      await pool.end();
      await db.drop();
    },
  };
}
