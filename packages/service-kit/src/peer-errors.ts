import { status, type ServiceError } from '@grpc/grpc-js';
import { DiscordError } from '@acs/discord-errors';

/**
 * 503: a service this request needed could not serve it (down, refusing, or failing
 * without saying why). Discord's body for it: `{code: 0, message: "503: Service Unavailable"}`.
 */
export class PeerUnavailableError extends DiscordError {
  constructor(cause?: unknown) {
    super(503, 0, '503: Service Unavailable');
    if (cause !== undefined) this.cause = cause;
  }
}

/** 504: the request's deadline passed before a service it needed answered. */
export class PeerTimeoutError extends DiscordError {
  constructor(cause?: unknown) {
    super(504, 0, '504: Gateway Timeout');
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * The DiscordError of a call that failed in transport rather than with a service's own
 * answer: a ServiceError that carries no error detail. DEADLINE_EXCEEDED is 504; any
 * other code (UNAVAILABLE, CANCELLED, or a peer failing with no detail, which it already
 * logged) is 503. So a peer's outage keeps its class through every hop's translator
 * instead of turning into an unexplained INTERNAL.
 */
export function fromTransportFailure(error: ServiceError): DiscordError {
  return error.code === status.DEADLINE_EXCEEDED
    ? new PeerTimeoutError(error)
    : new PeerUnavailableError(error);
}
