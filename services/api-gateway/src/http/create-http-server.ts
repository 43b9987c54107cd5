import { createServer, type RequestListener, type Server } from 'node:http';

/** Node's limits on how long a client may take, in milliseconds. */
export interface HttpTimeouts {
  /** To send a whole request, headers and body (Node's default: 300 s). */
  requestTimeoutMs: number;
  /** To send the headers (Node's default: 60 s). */
  headersTimeoutMs: number;
  /** An idle kept-alive connection stays open this long (above a balancer's idle timeout). */
  keepAliveTimeoutMs: number;
  /** How often Node looks for requests past their timeouts (default 1 s; Node's own: 30 s). */
  checkIntervalMs?: number;
}

/**
 * The HTTP server of the API with timeouts set for an API rather than Node's defaults, so
 * that a client trickling its headers or body holds a connection for seconds, not
 * minutes: past `headersTimeoutMs` or `requestTimeoutMs` Node answers 408 and closes it.
 */
export function createHttpServer(listener: RequestListener, timeouts: HttpTimeouts): Server {
  const server = createServer(
    {
      requestTimeout: timeouts.requestTimeoutMs,
      headersTimeout: timeouts.headersTimeoutMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs ?? 1000,
    },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  return server;
}
