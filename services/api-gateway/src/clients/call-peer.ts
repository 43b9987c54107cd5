import { callUnary, fromGrpcError } from '@acs/service-kit';

/** A unary method of a generated client, as `callUnary` takes it. */
type UnaryMethod<Req, Res> = Parameters<typeof callUnary<Req, Res>>[1];

/**
 * Calls a peer's RPC with `callUnary` (its own deadline, `deadlineMs` or callUnary's
 * default, cut to the request's remaining budget; a transport failure rejects as 503 or
 * 504) and rejects with the DiscordError (or OAuth2Error) a peer's own failure carries,
 * so that no handler translates gRPC errors itself.
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
