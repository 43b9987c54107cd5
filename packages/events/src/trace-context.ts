import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';

/**
 * W3C trace context (https://www.w3.org/TR/trace-context/) as it travels with an event:
 * in the outbox row's `trace_context` column, then as the NATS message's headers.
 */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** The header names that carry it, in the outbox column and on NATS. */
export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

/**
 * The trace context of the running code (`ctx`, default the active one), or null when
 * nothing is traced (no OpenTelemetry SDK installed, or no span in progress).
 */
export function captureTraceContext(ctx: Context = context.active()): TraceCarrier | null {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  const captured: TraceCarrier = {};
  for (const header of TRACE_HEADERS) if (carrier[header]) captured[header] = carrier[header];
  return captured.traceparent ? captured : null;
}

/** The context a carrier names (the root context when it names none). */
export function contextOfCarrier(carrier: TraceCarrier | null | undefined): Context {
  if (!carrier?.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** Reads a stored carrier (the outbox column), keeping only the W3C headers. */
export function readTraceCarrier(value: unknown): TraceCarrier | null {
  if (typeof value !== 'object' || value === null) return null;
  const carrier: TraceCarrier = {};
  for (const header of TRACE_HEADERS) {
    const field = (value as Record<string, unknown>)[header];
    if (typeof field === 'string' && field !== '') carrier[header] = field;
  }
  return carrier.traceparent ? carrier : null;
}
