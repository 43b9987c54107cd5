import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** A started telemetry pipeline; `shutdown` flushes pending spans. */
export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing (HTTP → gRPC → pg, which Prisma's driver adapter uses)
 * when an OTLP endpoint is configured. Without one nothing is installed, so the hot
 * paths pay nothing. Call before the instrumented modules are loaded: main.ts does so
 * and imports the rest of the service afterwards.
 */
export function startTelemetry(options: { serviceName: string; otlpEndpoint?: string }): Telemetry {
  if (!options.otlpEndpoint) return { shutdown: async () => undefined };
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, '')}/v1/traces` }),
    instrumentations: [
      new HttpInstrumentation(),
      new ExpressInstrumentation(),
      new GrpcInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
