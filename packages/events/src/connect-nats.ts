import { connect, type NatsConnection } from 'nats';
import { retry, type BackoffPolicy } from './retry';

/** What connecting logs through; pino's logger fits. */
export interface ConnectLogger {
  warn(obj: object, msg?: string): void;
}

/** Where and as whom to connect. */
export interface NatsTarget {
  /**
   * The server's URL (`NATS_URL`), or a comma-separated list of a cluster's servers: each is
   * tried in turn, at the start and on every reconnect (the client also learns the others
   * from the cluster once connected, but a process that starts while the one server it was
   * given is down would wait for it).
   */
  servers: string;
  /** The connection's name, as NATS monitoring shows it (the service's name). */
  name: string;
}

/**
 * Connects to NATS, retrying by the backoff policy until it succeeds or `signal` aborts
 * (then it rejects), so that a service starts while NATS is down. Once connected, the
 * client reconnects on its own for ever.
 */
export function connectNats(
  target: NatsTarget,
  options: { logger: ConnectLogger; signal?: AbortSignal; policy?: BackoffPolicy },
): Promise<NatsConnection> {
  return retry(
    () =>
      connect({
        servers: target.servers
          .split(',')
          .map((url) => url.trim())
          .filter(Boolean),
        name: target.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1000,
      }),
    {
      signal: options.signal,
      policy: options.policy,
      onRetry: (error, { delayMs }) =>
        options.logger.warn({ err: error, retryInMs: delayMs }, 'NATS not reachable yet; retrying'),
    },
  );
}
