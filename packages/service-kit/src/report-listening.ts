/** The `type` of the message `reportListening` sends. */
export const LISTENING_MESSAGE = 'acs.listening';

/** The TCP port each listener of a service is bound to, by listener name (`grpc`, `http`, `gateway`). */
export type ListeningPorts = Record<string, number>;

/** What a service sends to the process that started it once it listens. */
export interface ListeningMessage {
  type: typeof LISTENING_MESSAGE;
  listeners: ListeningPorts;
}

/**
 * Tells the process that started this one where it listens, once every listener is bound
 * and accepting. The local launcher (infra/src/stack.js) starts services with an IPC
 * channel and asks for port 0, so it learns the ports the OS chose instead of picking
 * "free" ports in advance, which another process may take first; the message is also its
 * signal that the service is up. Without an IPC channel (Kubernetes, Docker,
 * `node dist/main.js`) it does nothing.
 */
export function reportListening(listeners: ListeningPorts, proc: NodeJS.Process = process): void {
  if (!proc.send) return;
  const message: ListeningMessage = { type: LISTENING_MESSAGE, listeners };
  proc.send(message);
  // The channel must not keep the process alive once the rest of it has stopped.
  proc.channel?.unref();
}
