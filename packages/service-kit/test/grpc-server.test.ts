import * as grpc from '@grpc/grpc-js';
import {
  connect,
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
} from 'node:net';
import { loadCommandRegistryProto } from '@acs/protos';
import type { commandRegistry } from '@acs/protos';
import {
  callUnary,
  CLIENT_CHANNEL_OPTIONS,
  createGrpcClient,
  createGrpcServer,
  createLogger,
  fromGrpcError,
  PeerUnavailableError,
  type GrpcServer,
} from '../src';
import { DiscordError, InvalidFormBodyError, type ErrorTree } from '@acs/discord-errors';

const proto = loadCommandRegistryProto().acs.command_registry.v1;
const logger = createLogger('test', 'silent');

/** grpc.health.v1 Check through a raw call: true when SERVING. */
function isServing(client: grpc.Client): Promise<boolean> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0),
      (error, response?: Buffer) => resolve(!error && response?.[1] === 1),
    );
  });
}

/** An error tree of `count` fields, each with an error of a hundred characters: far more than a trailer holds. */
function manyErrors(count: number): ErrorTree {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      String(i),
      { name: { _errors: [{ code: 'X', message: 'm'.repeat(100) }] } },
    ]),
  );
}

describe('createGrpcServer', () => {
  let server: GrpcServer;
  let client: commandRegistry.CommandRegistryServiceClient;
  let ready = true;

  beforeAll(async () => {
    server = createGrpcServer({
      logger,
      readinessIntervalMs: 50,
      isReady: async () => ready,
      services: [
        {
          name: 'acs.command_registry.v1.CommandRegistryService',
          definition: proto.CommandRegistryService.service,
          handlers: {
            GetCommand: async (req: commandRegistry.GetCommandRequest__Output) => {
              if (req.command_id === 'invalid')
                throw new InvalidFormBodyError({ name: { _errors: [{ code: 'X', message: 'bad' }] } });
              if (req.command_id === 'crash') throw new Error('secret internals');
              if (req.command_id === 'many') throw new InvalidFormBodyError(manyErrors(5000));
              if (req.command_id === 'long') {
                throw new InvalidFormBodyError({
                  name: { _errors: [{ code: 'X', message: 'é'.repeat(300_000) }] },
                });
              }
              return { command_json: `{"id":"${req.command_id}"}` };
            },
          },
        },
      ],
    });
    const port = await server.listen('127.0.0.1:0');
    client = new proto.CommandRegistryService(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
      CLIENT_CHANNEL_OPTIONS,
    );
  });

  afterAll(async () => {
    client.close();
    await server.drain();
  });

  it('answers with the handler’s response', async () => {
    const answer = await callUnary(client, client.GetCommand, {
      application_id: '1',
      guild_id: '',
      command_id: '42',
    });
    expect(answer.command_json).toBe('{"id":"42"}');
  });

  it('carries a DiscordError across gRPC unchanged', async () => {
    const error = await callUnary(client, client.GetCommand, {
      application_id: '1',
      guild_id: '',
      command_id: 'invalid',
    }).catch((e: unknown) => e);
    expect((error as grpc.ServiceError).code).toBe(grpc.status.INVALID_ARGUMENT);
    const detail = fromGrpcError(error);
    expect(detail).toBeInstanceOf(DiscordError);
    expect(detail?.httpStatus).toBe(400);
    expect(detail?.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { name: { _errors: [{ code: 'X', message: 'bad' }] } },
    });
  });

  it('carries an error too large for the trailers as the first errors that fit, not as a timeout', async () => {
    // Trailers over 64 KiB never reach a Node caller: the call would end at its deadline.
    const started = Date.now();
    const error = await callUnary(
      client,
      client.GetCommand,
      { application_id: '1', guild_id: '', command_id: 'many' },
      3000,
    ).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    const detail = fromGrpcError(error);
    expect(detail?.httpStatus).toBe(400);
    const body = detail?.toBody();
    expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    const kept = Object.keys(body?.errors ?? {});
    // The first errors, in order, each whole.
    expect(kept.length).toBeGreaterThan(50);
    expect(kept.length).toBeLessThan(5000);
    expect(kept).toEqual(kept.map((_, i) => String(i)));
    expect(body?.errors?.['0']).toEqual({ name: { _errors: [{ code: 'X', message: 'm'.repeat(100) }] } });
  });

  it('shortens an error message too long for the trailers', async () => {
    const error = await callUnary(
      client,
      client.GetCommand,
      { application_id: '1', guild_id: '', command_id: 'long' },
      3000,
    ).catch((e: unknown) => e);
    const leaf = (fromGrpcError(error)?.errors?.name as ErrorTree | undefined)?._errors?.[0];
    expect(leaf?.code).toBe('X');
    expect(leaf?.message.startsWith('éééé')).toBe(true);
    expect(leaf?.message.length).toBeLessThanOrEqual(200);
  });

  it('hides an unexpected error behind INTERNAL with no detail', async () => {
    const error = await callUnary(client, client.GetCommand, {
      application_id: '1',
      guild_id: '',
      command_id: 'crash',
    }).catch((e: unknown) => e);
    // The caller sees a peer that could not serve (503); what went over the wire is a bare INTERNAL.
    expect(error).toBeInstanceOf(PeerUnavailableError);
    const wire = (error as Error).cause as grpc.ServiceError;
    expect(wire.code).toBe(grpc.status.INTERNAL);
    expect(wire.details).not.toContain('secret');
    expect(fromGrpcError(wire)).toBeUndefined();
  });

  it('reports readiness through grpc.health.v1 as the check says', async () => {
    expect(await isServing(client)).toBe(true);
    ready = false;
    await new Promise((r) => setTimeout(r, 150));
    expect(await isServing(client)).toBe(false);
    ready = true;
    await new Promise((r) => setTimeout(r, 150));
    expect(await isServing(client)).toBe(true);
  });
});

describe('createGrpcServer’s connection age', () => {
  // A client resolves its target again only when a connection ends: the server ends each
  // after maxConnectionAgeMs (GOAWAY), so clients find pods added since; calls in flight
  // then must finish, and new ones go on a new connection, none failing.
  let server: GrpcServer;
  let proxy: NetServer;
  let connections = 0;

  beforeAll(async () => {
    server = createGrpcServer({
      logger,
      maxConnectionAgeMs: 300,
      isReady: async () => true,
      services: [
        {
          name: 'acs.command_registry.v1.CommandRegistryService',
          definition: proto.CommandRegistryService.service,
          handlers: {
            GetCommand: async (req: commandRegistry.GetCommandRequest__Output) => {
              await new Promise((r) => setTimeout(r, 80));
              return { command_json: req.command_id };
            },
          },
        },
      ],
    });
    const port = await server.listen('127.0.0.1:0');
    // Counts the client's TCP connections on their way to the server.
    proxy = createNetServer((socket) => {
      connections += 1;
      const upstream = connect(port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      for (const s of [socket, upstream]) s.on('error', () => s.destroy());
      socket.on('close', () => upstream.destroy());
      upstream.on('close', () => socket.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await server.drain();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('ends each connection after its age without failing a call', async () => {
    const { port } = proxy.address() as AddressInfo;
    const client = new proto.CommandRegistryService(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
      CLIENT_CHANNEL_OPTIONS,
    );
    try {
      const calls: Promise<unknown>[] = [];
      const until = Date.now() + 1500;
      for (let i = 0; Date.now() < until; i += 1) {
        calls.push(
          callUnary(client, client.GetCommand, { application_id: '1', guild_id: '', command_id: `${i}` }),
        );
        await new Promise((r) => setTimeout(r, 20));
      }
      const answers = await Promise.allSettled(calls);
      expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
      expect(answers.length).toBeGreaterThan(40);
      // About one connection per 300 ms, ±10 %.
      expect(connections).toBeGreaterThanOrEqual(3);
    } finally {
      client.close();
    }
  });
});

describe('CLIENT_CHANNEL_OPTIONS over a target of several addresses', () => {
  // How the launcher wires replicas (`ipv4:127.0.0.1:a,127.0.0.1:b`) and how a headless
  // Service resolves: round_robin spreads the calls, and skips an address that is down.
  const servers: GrpcServer[] = [];
  const served = [0, 0];
  let ports: number[] = [];

  beforeAll(async () => {
    ports = await Promise.all(
      [0, 1].map(async (index) => {
        const server = createGrpcServer({
          logger,
          isReady: async () => true,
          services: [
            {
              name: 'acs.command_registry.v1.CommandRegistryService',
              definition: proto.CommandRegistryService.service,
              handlers: {
                GetCommand: async () => {
                  served[index] = (served[index] ?? 0) + 1;
                  return { command_json: String(index) };
                },
              },
            },
          ],
        });
        servers.push(server);
        return server.listen('127.0.0.1:0');
      }),
    );
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.drain()));
  });

  it('spreads calls over every address, and sends them all to the other while one is down', async () => {
    const client = createGrpcClient(
      proto.CommandRegistryService,
      `ipv4:${ports.map((port) => `127.0.0.1:${port}`).join(',')}`,
    );
    const call = () =>
      callUnary(client, client.GetCommand, { application_id: '1', guild_id: '', command_id: '1' });
    try {
      for (let i = 0; i < 20; i += 1) await call();
      // Both connect before the first call is sent; from then on, in turn.
      expect(served[0]).toBeGreaterThanOrEqual(8);
      expect(served[1]).toBeGreaterThanOrEqual(8);

      await servers[0]!.drain();
      const before = served[1]!;
      for (let i = 0; i < 20; i += 1) await call();
      expect(served[1]! - before).toBe(20);
    } finally {
      client.close();
    }
  });
});
