import type { JsonRecord } from '../invocation/invocation-facts';
import { capBody } from './cap-body';
import { TRACE_BODY_MAX_BYTES } from './trace-limits';

/** An interaction as its trace is begun from (the recording's view of it). */
export interface TracedInteraction {
  id: string;
  applicationId: string;
  type: number;
  commandName: string;
  userId: string;
  guildId: string | null;
  channelId: string;
  /** `http` (the interactions endpoint), `gateway` (INTERACTION_CREATE), `activity` (a launch). */
  delivery: string;
  /** The interaction object without its token. */
  payload: JsonRecord;
}

/** The trace row a recording inserts. */
export interface NewTrace {
  interactionId: string;
  applicationId: string;
  type: number;
  commandName: string;
  customId: string | null;
  userId: string;
  guildId: string | null;
  channelId: string;
  payload: unknown;
  delivery: JsonRecord;
  /** A launch is answered as it is recorded: its outcome; null while pending. */
  outcome: JsonRecord | null;
}

/**
 * Plans the trace of an interaction being recorded: its summary, its capped payload, how it
 * goes, and the initial response it is recorded with (a launch), if any.
 */
export function planTrace(
  interaction: TracedInteraction,
  initialResponse: { type: number; data?: unknown } | null = null,
): NewTrace {
  const data = (interaction.payload.data ?? {}) as { custom_id?: unknown };
  return {
    interactionId: interaction.id,
    applicationId: interaction.applicationId,
    type: interaction.type,
    commandName: interaction.commandName,
    customId: typeof data.custom_id === 'string' ? data.custom_id : null,
    userId: interaction.userId,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    payload: capBody(interaction.payload, TRACE_BODY_MAX_BYTES),
    delivery: { kind: interaction.delivery === 'http' ? 'endpoint' : interaction.delivery },
    outcome: initialResponse === null ? null : answeredOutcomeOf(initialResponse),
  };
}

/** What a signed POST to the interactions endpoint was, and what it answered. */
export interface EndpointDelivery {
  url: string;
  timestamp: string;
  /** The status the endpoint answered; null when it did not (timed out, unreachable, refused address). */
  status: number | null;
}

/** The trace's `delivery` of an interaction POSTed to its endpoint (the header names, not the signature). */
export function endpointDeliveryOf(delivery: EndpointDelivery): JsonRecord {
  return {
    kind: 'endpoint',
    url: delivery.url,
    signature_headers: ['X-Signature-Ed25519', 'X-Signature-Timestamp'],
    timestamp: delivery.timestamp,
    status: delivery.status,
  };
}

/** The trace's outcome of an interaction that got its initial response. */
export function answeredOutcomeOf(response: { type: number; data?: unknown }): JsonRecord {
  return {
    kind: 'answered',
    callback_type: response.type,
    body: capBody(response, TRACE_BODY_MAX_BYTES),
  };
}

/** A follow-up, an edit or a deletion through the interaction's token, as the trace keeps it. */
export function traceStep(
  kind: 'followup' | 'edit' | 'delete',
  messageId: string,
  original: boolean,
  body: unknown,
  at: Date,
): JsonRecord {
  return {
    kind,
    message_id: messageId,
    original,
    at: at.toISOString(),
    ...(kind === 'delete' ? {} : { body: capBody(body, TRACE_BODY_MAX_BYTES) }),
  };
}
