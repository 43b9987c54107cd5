import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { DiscordError } from '@acs/discord-errors';
import { runWithDeadline } from './deadline-context';
import { LONGEST_CALL_MS } from './call-unary';
import { durationHistogram, instrumentsOf } from './metrics';
import { toGrpcError } from './grpc-errors';
import { RepeatedErrorLog } from './repeated-error-log';

/** An async handler per RPC: return the response or throw (a DiscordError reaches the client). */
export type UnaryHandlers = Record<string, (request: never) => Promise<unknown>>;

/** One gRPC service to serve: its definition (from the generated proto) and its handlers. */
export interface ServiceBinding {
  /** Fully qualified name, e.g. `acs.command_registry.v1.CommandRegistryService` (health reports it). */
  name: string;
  definition: grpc.ServiceDefinition;
  handlers: UnaryHandlers;
}

/** A gRPC server with health checking; call `listen` to start and `drain` to stop. */
export interface GrpcServer {
  server: grpc.Server;
  listen(address: string): Promise<number>;
  /** Marks the service NOT_SERVING, stops accepting calls and waits for in-flight ones. */
  drain(): Promise<void>;
}

/**
 * How long a connection to an ACS gRPC server lives. A client's round_robin balances over the addresses its
 * name resolved to when it connected, and grpc-js resolves a name again only when a
 * connection ends: without an end, pods that an autoscaler adds would get no calls from
 * clients already connected. So a connection lives about a minute (grpc-js adds ±10 %
 * of jitter): the server then sends GOAWAY, lets the calls in flight finish (for
 * CONNECTION_AGE_GRACE_MS, longer than any call may last), and the client resolves the
 * name again and connects to every pod it now finds, without failing a call.
 */
export const MAX_CONNECTION_AGE_MS = 60_000;

/**
 * How long a recycled connection's calls in flight may go on before it is closed: longer
 * than the longest call (LONGEST_CALL_MS, a `?wait=true` invocation), so that a recycle
 * never drops one (with a shorter grace, every long wait in flight failed at once with 503
 * "Connection dropped").
 */
export const CONNECTION_AGE_GRACE_MS = LONGEST_CALL_MS + 10_000;

/**
 * Creates a gRPC server whose handlers are plain async functions. Each runs with the
 * incoming call's deadline (`runWithDeadline`), so the calls it makes to other services
 * end when its caller stops waiting. Errors go through the one translation (DiscordError
 * → status + detail); anything else is answered INTERNAL without leaking its message.
 * Unexpected errors and 5xx answers (a peer unavailable) are logged through a
 * RepeatedErrorLog: the first of a kind whole, repeats as a count per interval.
 * `grpc.health.v1` reports SERVING only while `isReady` (polled every
 * `readinessIntervalMs`) says so.
 */
export function createGrpcServer(options: {
  logger: Logger;
  services: ServiceBinding[];
  isReady: () => Promise<boolean>;
  readinessIntervalMs?: number;
  /** How long a client's connection lives before GOAWAY (default MAX_CONNECTION_AGE_MS). */
  maxConnectionAgeMs?: number;
}): GrpcServer {
  const { logger } = options;
  const errorLog = new RepeatedErrorLog(logger);
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    'grpc.max_connection_age_ms': options.maxConnectionAgeMs ?? MAX_CONNECTION_AGE_MS,
    'grpc.max_connection_age_grace_ms': CONNECTION_AGE_GRACE_MS,
  });
  const names = ['', ...options.services.map((s) => s.name)];
  const health = new HealthImplementation(Object.fromEntries(names.map((n) => [n, 'NOT_SERVING'])));
  health.addToServer(server);
  let draining = false;

  for (const binding of options.services) {
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const [method, handler] of Object.entries(binding.handlers)) {
      implementation[method] = (
        call: grpc.ServerUnaryCall<unknown, unknown>,
        callback: grpc.sendUnaryData<unknown>,
      ) => {
        const started = performance.now();
        const record = (code: grpc.status): void =>
          rpcServerInstruments().duration.record((performance.now() - started) / 1000, {
            'rpc.system': 'grpc',
            'rpc.service': binding.name,
            'rpc.method': method,
            'rpc.grpc.status_code': code,
          });
        runWithDeadline(deadlineOf(call), () => handler(call.request as never)).then(
          (response) => {
            record(grpc.status.OK);
            callback(null, response);
          },
          (error: unknown) => {
            const answer = translateError(errorLog, `${binding.name}/${method}`, error);
            record(answer.code ?? grpc.status.UNKNOWN);
            callback(answer);
          },
        );
      };
    }
    server.addService(binding.definition, implementation);
  }

  const setAll = (status: 'SERVING' | 'NOT_SERVING'): void => {
    for (const name of names) health.setStatus(name, status);
  };
  const probe = async (): Promise<void> => {
    let ready = false;
    try {
      ready = !draining && (await options.isReady());
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
    }
    setAll(ready ? 'SERVING' : 'NOT_SERVING');
  };
  let timer: NodeJS.Timeout | undefined;

  return {
    server,
    async listen(address) {
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) =>
          error ? reject(error) : resolve(bound),
        ),
      );
      await probe();
      timer = setInterval(() => void probe(), options.readinessIntervalMs ?? 5000);
      timer.unref();
      return port;
    },
    async drain() {
      draining = true;
      if (timer) clearInterval(timer);
      setAll('NOT_SERVING');
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}

/**
 * `rpc.server.duration` (seconds) of every call, by `rpc.service`, `rpc.method` and
 * `rpc.grpc.status_code` (0 OK; the count of the others is the error rate by code).
 */
const rpcServerInstruments = instrumentsOf((meter) => ({
  duration: durationHistogram(meter, 'rpc.server.duration', 'Duration of gRPC calls served'),
}));

/** The incoming call's deadline in epoch milliseconds (Infinity when the caller set none). */
function deadlineOf(call: grpc.ServerUnaryCall<unknown, unknown>): number {
  const deadline = call.getDeadline();
  return deadline instanceof Date ? deadline.getTime() : deadline;
}

function translateError(errorLog: RepeatedErrorLog, rpc: string, error: unknown): Partial<grpc.ServiceError> {
  if (error instanceof DiscordError) {
    if (error.httpStatus >= 500)
      errorLog.report('warn', error, { rpc }, 'RPC answered 5xx: a service it needs failed');
    return toGrpcError(error);
  }
  errorLog.report('error', error, { rpc }, 'unhandled error in RPC');
  return { code: grpc.status.INTERNAL, details: 'internal error' };
}
