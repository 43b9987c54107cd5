import { SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';

/** The tracer of event publishing and consuming (a no-op unless an OpenTelemetry SDK is started). */
export const eventTracer = trace.getTracer('@acs/events');

/**
 * Runs `work` in a span named `name`, a child of `parent` (an event's `trace`, so that
 * the work joins the trace of the change that made the event), and ends the span with
 * the outcome.
 */
export async function withEventSpan<T>(
  parent: { trace: Context },
  name: string,
  work: () => Promise<T> | T,
  options: { attributes?: Attributes; kind?: SpanKind } = {},
): Promise<T> {
  return eventTracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent.trace,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
