import { callUnary } from './call-unary';
import { fromGrpcError } from './grpc-errors';

/** A unary method of a generated client, as `callUnary` takes it. */
type UnaryMethod<Req, Res> = Parameters<typeof callUnary<Req, Res>>[1];

/**
 * The one way a service calls a peer's RPC: `callUnary` (its own deadline, `deadlineMs` or
 * callUnary's default, cut to the caller's remaining budget; a transport failure rejects
 * as 503 or 504), and a peer's own failure rejects with the DiscordError (or OAuth2Error)
 * its error detail carries (`fromGrpcError`), so that no client or handler decodes gRPC
 * errors itself: a peer's 404 is `error.httpStatus === 404`.
 */
export async function callPeer<Req, Res>(
  client: Parameters<typeof callUnary<Req, Res>>[0],
  method: UnaryMethod<Req, Res>,
  request: Req,
  deadlineMs?: number,
): Promise<Res> {
  try {
    return await callUnary(client, method, request, deadlineMs);
  } catch (error) {
    throw fromGrpcError(error) ?? error;
  }
}
