import * as grpc from '@grpc/grpc-js';
import { loadCommandRegistryProto } from '@acs/protos';
import type { commandRegistry } from '@acs/protos';
import {
  callPeer,
  callUnary,
  CLIENT_CHANNEL_OPTIONS,
  CONNECTION_AGE_GRACE_MS,
  createGrpcServer,
  createLogger,
  currentDeadline,
  fromGrpcError,
  LONGEST_CALL_MS,
  PeerTimeoutError,
  PeerUnavailableError,
  runWithDeadline,
  type GrpcServer,
  type UnaryHandlers,
} from '../src';
import { DiscordError } from '@acs/discord-errors';

/**
 * Transport failures keep their class across hops (503 peer down, 504 deadline), and a
 * call inherits the deadline of the work that makes it: real gRPC servers on free ports.
 */
const proto = loadCommandRegistryProto().acs.command_registry.v1;
const logger = createLogger('test', 'silent');
type Client = commandRegistry.CommandRegistryServiceClient;

const started: GrpcServer[] = [];
const clients: grpc.Client[] = [];

/** A registry server whose GetCommand is `getCommand`; answers its port. */
async function serve(getCommand: UnaryHandlers[string]): Promise<{ server: GrpcServer; port: number }> {
  const server = createGrpcServer({
    logger,
    isReady: async () => true,
    services: [
      {
        name: 'acs.command_registry.v1.CommandRegistryService',
        definition: proto.CommandRegistryService.service,
        handlers: { GetCommand: getCommand },
      },
    ],
  });
  started.push(server);
  return { server, port: await server.listen('127.0.0.1:0') };
}

function clientOf(port: number): Client {
  const client = new proto.CommandRegistryService(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    CLIENT_CHANNEL_OPTIONS,
  );
  clients.push(client);
  return client;
}

const REQUEST = { application_id: '1', guild_id: '', command_id: '42' };
const ANSWER = { command_json: '{}' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server that listened and was stopped: its port refuses connections. */
async function stoppedPort(): Promise<number> {
  const { server, port } = await serve(async () => ANSWER);
  await server.drain();
  return port;
}

afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all(started.map((server) => server.drain()));
});

describe('callUnary', () => {
  it('rejects with 503 and Discord’s body when the peer is down', async () => {
    const client = clientOf(await stoppedPort());
    const error = await callUnary(client, client.GetCommand, REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerUnavailableError);
    expect((error as DiscordError).httpStatus).toBe(503);
    expect((error as DiscordError).toBody()).toEqual({ code: 0, message: '503: Service Unavailable' });
  });

  it('rejects with 504 when the peer does not answer within the deadline', async () => {
    const { port } = await serve(async () => {
      await sleep(1_000);
      return ANSWER;
    });
    const client = clientOf(port);
    const before = Date.now();
    const error = await callUnary(client, client.GetCommand, REQUEST, 200).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerTimeoutError);
    expect((error as DiscordError).toBody()).toEqual({ code: 0, message: '504: Gateway Timeout' });
    expect(Date.now() - before).toBeLessThan(900);
  });

  it('rejects with 503 when the peer failed without a detail (it logged its own error)', async () => {
    const { port } = await serve(async () => {
      throw new Error('peer bug');
    });
    const client = clientOf(port);
    const error = await callUnary(client, client.GetCommand, REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerUnavailableError);
  });

  it('keeps a service’s own error as the ServiceError that carries its detail', async () => {
    const { port } = await serve(async () => {
      throw new DiscordError(404, 10063, 'Unknown application command');
    });
    const client = clientOf(port);
    const error = await callUnary(client, client.GetCommand, REQUEST).catch((e: unknown) => e);
    expect((error as grpc.ServiceError).code).toBe(grpc.status.NOT_FOUND);
    expect(fromGrpcError(error)?.toBody()).toEqual({ code: 10063, message: 'Unknown application command' });
  });

  it('uses the deadline of the work that calls, when it is sooner than its own', async () => {
    const { port } = await serve(async () => {
      await sleep(2_000);
      return ANSWER;
    });
    const client = clientOf(port);
    const before = Date.now();
    const error = await runWithDeadline(Date.now() + 300, () =>
      callUnary(client, client.GetCommand, REQUEST).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(PeerTimeoutError);
    expect(Date.now() - before).toBeLessThan(1_500);
  });
});

describe('callPeer', () => {
  it('rejects with the DiscordError a service’s own failure carries', async () => {
    const { port } = await serve(async () => {
      throw new DiscordError(400, 50035, 'Invalid Form Body', {
        name: { _errors: [{ code: 'X', message: 'x' }] },
      });
    });
    const client = clientOf(port);
    const error = await callPeer(client, client.GetCommand, REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordError);
    expect((error as DiscordError).toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { name: { _errors: [{ code: 'X', message: 'x' }] } },
    });
  });

  it('answers what the peer answers, and keeps transport failures as 503', async () => {
    const { port } = await serve(async () => ANSWER);
    const client = clientOf(port);
    expect(await callPeer(client, client.GetCommand, REQUEST)).toMatchObject(ANSWER);
    const down = clientOf(await stoppedPort());
    expect(await callPeer(down, down.GetCommand, REQUEST).catch((e: unknown) => e)).toBeInstanceOf(
      PeerUnavailableError,
    );
  });
});

describe('a chain of two hops (near → far)', () => {
  /** A near server whose handler calls the far one as services do (`callPeer`). */
  async function nearOf(farPort: number): Promise<Client> {
    const far = clientOf(farPort);
    const { port } = await serve(async () => callPeer(far, far.GetCommand, REQUEST));
    return clientOf(port);
  }

  it('carries the far service’s own error to the near caller whole', async () => {
    const { port: farPort } = await serve(async () => {
      throw new DiscordError(404, 10063, 'Unknown application command');
    });
    const near = await nearOf(farPort);
    const error = await callPeer(near, near.GetCommand, REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordError);
    expect((error as DiscordError).httpStatus).toBe(404);
    expect((error as DiscordError).toBody()).toEqual({ code: 10063, message: 'Unknown application command' });
  });

  it('answers 503 at the near caller when the far service is down', async () => {
    const near = await nearOf(await stoppedPort());
    const error = await callUnary(near, near.GetCommand, REQUEST).catch((e: unknown) => e);
    expect((error as grpc.ServiceError).code).toBe(grpc.status.UNAVAILABLE);
    const carried = fromGrpcError(error);
    expect(carried?.httpStatus).toBe(503);
    expect(carried?.toBody()).toEqual({ code: 0, message: '503: Service Unavailable' });
  });

  it('answers 504 at the near caller when the far service is too slow for the caller’s deadline', async () => {
    const { port: farPort } = await serve(async () => {
      await sleep(3_000);
      return ANSWER;
    });
    const near = await nearOf(farPort);
    const before = Date.now();
    const error = await callUnary(near, near.GetCommand, REQUEST, 500).catch((e: unknown) => e);
    // The near caller's own deadline passes first, or the far call's (inherited) does: 504 either way.
    const status =
      error instanceof DiscordError ? error.httpStatus : (fromGrpcError(error)?.httpStatus ?? 'none');
    expect(status).toBe(504);
    expect(Date.now() - before).toBeLessThan(2_000);
  });

  it('passes the caller’s remaining deadline to the far server instead of a fresh default', async () => {
    const seen: Array<number | undefined> = [];
    const { port: farPort } = await serve(async () => {
      seen.push(currentDeadline());
      return ANSWER;
    });
    const near = await nearOf(farPort);

    const before = Date.now();
    await callUnary(near, near.GetCommand, REQUEST, 1_000);
    await callUnary(near, near.GetCommand, REQUEST);

    const [inherited, fresh] = seen;
    // gRPC carries deadlines as a timeout with millisecond resolution: allow a little.
    expect(inherited).toBeDefined();
    expect(inherited!).toBeLessThanOrEqual(before + 1_000 + 50);
    expect(fresh!).toBeGreaterThan(before + 4_000);
  });

  it('cuts a deadline to LONGEST_CALL_MS, which a recycled connection lets finish', async () => {
    const seen: Array<number | undefined> = [];
    const { port } = await serve(async () => {
      seen.push(currentDeadline());
      return ANSWER;
    });
    const client = clientOf(port);
    const before = Date.now();
    await callUnary(client, client.GetCommand, REQUEST, 15 * 60_000);
    expect(seen[0]).toBeDefined();
    expect(seen[0]!).toBeLessThanOrEqual(before + LONGEST_CALL_MS + 50);
    expect(seen[0]!).toBeGreaterThan(before + LONGEST_CALL_MS - 5_000);
    expect(CONNECTION_AGE_GRACE_MS).toBeGreaterThan(LONGEST_CALL_MS);
  });
});

describe('runWithDeadline', () => {
  it('keeps the sooner of nested deadlines, and none outside', async () => {
    expect(currentDeadline()).toBeUndefined();
    await runWithDeadline(5_000, async () => {
      await sleep(1);
      expect(currentDeadline()).toBe(5_000);
      await runWithDeadline(9_000, async () => expect(currentDeadline()).toBe(5_000));
      await runWithDeadline(2_000, async () => expect(currentDeadline()).toBe(2_000));
      await runWithDeadline(Infinity, async () => expect(currentDeadline()).toBe(5_000));
    });
    expect(currentDeadline()).toBeUndefined();
  });
});
