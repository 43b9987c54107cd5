import * as grpc from '@grpc/grpc-js';
import { currentDeadline } from './deadline-context';
import { carriesErrorDetail, isServiceError } from './grpc-errors';
import { durationHistogram, instrumentsOf } from './metrics';
import { fromTransportFailure } from './peer-errors';

/** Default deadline of a call between services. */
export const DEFAULT_DEADLINE_MS = 5000;

/**
 * The longest a call between services may last (a `?wait=true` invocation waits this long
 * at most): longer deadlines are cut to it. A server lets the calls in flight on a
 * connection it recycles finish for longer than this (createGrpcServer), so no call is
 * dropped by a recycle.
 */
export const LONGEST_CALL_MS = 60_000;

// Generated client methods are overloaded; TypeScript infers from the last overload,
// `(argument, callback)`, which is enough to learn the request and response types.
type UnaryMethod<Req, Res> = (request: Req, callback: grpc.requestCallback<Res>) => grpc.ClientUnaryCall;

type FullUnaryMethod = (
  request: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: grpc.requestCallback<unknown>,
) => grpc.ClientUnaryCall;

/**
 * Calls a unary RPC of a generated client and returns a promise. Its deadline is
 * `deadlineMs` from now, or the deadline of the work that makes the call
 * (`runWithDeadline`: the incoming RPC's, the HTTP request's budget) when that is sooner,
 * so that a chain of calls never outlives its caller.
 *
 * A service's own error (one carrying an error detail) rejects with the ServiceError:
 * peer clients call through `callPeer`, which reads its detail. A call that failed in transport (the peer down,
 * the deadline passed, or a peer failing without a detail) rejects with a DiscordError,
 * 503 or 504 (`fromTransportFailure`), which every hop's translator passes on unchanged.
 */
export function callUnary<Req, Res>(
  client: grpc.Client,
  method: UnaryMethod<Req, Res>,
  request: Req,
  deadlineMs = DEFAULT_DEADLINE_MS,
): Promise<Res> {
  const own = Date.now() + Math.min(deadlineMs, LONGEST_CALL_MS);
  const inherited = currentDeadline();
  const deadline = inherited === undefined ? own : Math.min(own, inherited);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    (method as unknown as FullUnaryMethod).call(
      client,
      request,
      new grpc.Metadata(),
      { deadline },
      (error, response) => {
        rpcClientInstruments().duration.record((performance.now() - started) / 1000, {
          'rpc.system': 'grpc',
          ...rpcNameOf(method),
          'rpc.grpc.status_code': error
            ? isServiceError(error)
              ? error.code
              : grpc.status.UNKNOWN
            : grpc.status.OK,
        });
        if (!error) return resolve(response as Res);
        reject(isServiceError(error) && !carriesErrorDetail(error) ? fromTransportFailure(error) : error);
      },
    );
  });
}

/**
 * `rpc.client.duration` (seconds) of every call made, by the peer's `rpc.service`, its
 * `rpc.method` and `rpc.grpc.status_code` (DEADLINE_EXCEEDED, UNAVAILABLE: the peer's
 * failures as this side saw them).
 */
const rpcClientInstruments = instrumentsOf((meter) => ({
  duration: durationHistogram(meter, 'rpc.client.duration', 'Duration of gRPC calls made'),
}));

/**
 * `rpc.service` and `rpc.method` of a generated client method, from the path grpc-js
 * gives it (`/acs.oauth.v1.OAuthService/ResetBotToken`).
 */
function rpcNameOf(method: unknown): { 'rpc.service': string; 'rpc.method': string } {
  const path = (method as { path?: unknown }).path;
  const match = typeof path === 'string' ? /^\/([^/]+)\/([^/]+)$/.exec(path) : null;
  return { 'rpc.service': match?.[1] ?? 'unknown', 'rpc.method': match?.[2] ?? 'unknown' };
}

/**
 * Options every ACS client channel uses: keepalive so that idle channels to other pods
 * stay warm, and round-robin over every address the name resolves to, so that with a
 * headless Kubernetes Service (`dns:///command-registry:50051`) calls spread over all
 * replicas instead of sticking to the first.
 */
export const CLIENT_CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.max_receive_message_length': 8 * 1024 * 1024,
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
};

/** What proto-loader generates for a service: a client class taking address, credentials and options. */
export type GrpcClientConstructor<C> = new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: Partial<grpc.ChannelOptions>,
) => C;

/**
 * A client of another ACS service, with the channel options every client uses. Plaintext:
 * the hop stays inside the cluster, where the network policy (or a mesh) protects it.
 */
export function createGrpcClient<C>(Service: GrpcClientConstructor<C>, address: string): C {
  return new Service(address, grpc.credentials.createInsecure(), CLIENT_CHANNEL_OPTIONS);
}
