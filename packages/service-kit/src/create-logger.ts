import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Fields that may hold a credential: pino replaces their values before they are written. */
const REDACTED_PATHS = [
  'authorization',
  'token',
  'bot_token',
  'client_secret',
  'access_token',
  'refresh_token',
  'code',
  'code_verifier',
  'password',
  '*.authorization',
  '*.token',
  '*.bot_token',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  'req.headers.authorization',
];

/**
 * `trace_id` and `span_id` of the span active where a line is logged (none without
 * tracing, or outside a span), so that a log line leads to its request's trace.
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}

/**
 * A JSON logger named after the service, with credentials redacted; each line carries the
 * active span's `trace_id` and `span_id` (`traceFields`).
 */
export function createLogger(service: string, level: string): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceFields,
  });
}
