import { ErrorCode, type NatsConnection, type NatsError } from 'nats';

/**
 * The core NATS subject (outside the event stream's `<prefix>.>`) on which the dispatcher
 * sends an application's bot sessions their dispatches: a dispatcher replica subscribes to
 * it while it holds a session of that bot (attached, or waiting for a resume).
 */
export function botGatewaySubject(subjectPrefix: string, applicationId: string): string {
  return `${subjectPrefix}_gateway.${applicationId}`;
}

/** How long a probe waits for a dispatcher replica's answer. */
const PROBE_TIMEOUT_MS = 1000;

/**
 * Whether any dispatcher replica holds a gateway session of the application's bot: a
 * request on its subject that every replica holding one answers at once (the dispatch
 * bus answers a message with a reply subject and delivers nothing). NATS tells at once
 * when no one subscribes ("no responders"): false. Undefined when NATS could not tell
 * (disconnected, no answer in time).
 */
export async function hasBotSession(
  nats: NatsConnection,
  subjectPrefix: string,
  applicationId: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<boolean | undefined> {
  try {
    await nats.request(botGatewaySubject(subjectPrefix, applicationId), undefined, { timeout: timeoutMs });
    return true;
  } catch (error) {
    return (error as NatsError).code === ErrorCode.NoResponders ? false : undefined;
  }
}
