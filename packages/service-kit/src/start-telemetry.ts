import { metrics } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationType, MeterProvider } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { parseMetricsPort, serveMetrics } from './metrics';
import type { ListeningPorts } from './report-listening';

/** The instrumentations installed with tracing; their own metrics are dropped. */
const INSTRUMENTATIONS = ['http', 'express', 'grpc', 'pg'];

/** A started telemetry pipeline; `shutdown` flushes pending spans and closes the metrics endpoint. */
export interface Telemetry {
  /**
   * `{ metrics: port }` once the Prometheus endpoint listens, `{}` without one: spread it
   * into `reportListening`. Rejects when METRICS_PORT cannot be bound.
   */
  listening(): Promise<ListeningPorts>;
  shutdown(): Promise<void>;
}

/** Options of `startTelemetry`; main.ts passes the environment's values as they are. */
export interface TelemetryOptions {
  serviceName: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: traces are recorded and exported only with one. */
  otlpEndpoint?: string;
  /** METRICS_PORT: the Prometheus endpoint's port (`0`: any free one); unset or empty: no metrics. Absent: read from process.env. */
  metricsPort?: string;
  /** METRICS_HOST: the interface it listens on (default every one, 0.0.0.0). */
  metricsHost?: string;
}

/**
 * Starts OpenTelemetry: tracing (HTTP → gRPC → pg, which Prisma's driver adapter uses)
 * when an OTLP endpoint is configured, and metrics served for Prometheus at
 * `:METRICS_PORT/metrics` when a port is. Without either nothing is installed, so the hot
 * paths pay nothing (the instruments are the API's no-ops). Call before the instrumented
 * modules are loaded: main.ts does so and imports the rest of the service afterwards.
 *
 * The metrics are ACS's own instruments (meter `acs`: RED per route and per RPC, the
 * event pipeline's lag); the instrumentations' own metrics are dropped, so that the
 * endpoint has one series per thing measured.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  // A main.ts that passes none still follows the environment (k8s sets METRICS_PORT for all).
  const metricsPort = parseMetricsPort(
    'metricsPort' in options ? options.metricsPort : process.env.METRICS_PORT,
  );
  const endpoint =
    metricsPort === undefined
      ? undefined
      : serveMetrics(metricsPort, options.metricsHost || process.env.METRICS_HOST || '0.0.0.0');
  let meterProvider: MeterProvider | undefined;
  if (endpoint) {
    meterProvider = new MeterProvider({
      resource: resourceFromAttributes({ 'service.name': options.serviceName }),
      readers: [endpoint.exporter],
      views: INSTRUMENTATIONS.map((name) => ({
        meterName: `@opentelemetry/instrumentation-${name}`,
        aggregation: { type: AggregationType.DROP },
      })),
    });
    metrics.setGlobalMeterProvider(meterProvider);
  }
  let sdk: NodeSDK | undefined;
  if (options.otlpEndpoint) {
    sdk = new NodeSDK({
      serviceName: options.serviceName,
      traceExporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, '')}/v1/traces` }),
      // With a Prometheus endpoint the metrics go there (above); without one the SDK's
      // default (OTEL_METRICS_EXPORTER, OTLP) sends them, ACS's instruments included.
      ...(endpoint ? { metricReaders: [] } : {}),
      instrumentations: [
        new HttpInstrumentation(),
        new ExpressInstrumentation(),
        new GrpcInstrumentation(),
        new PgInstrumentation(),
      ],
    });
    sdk.start();
  }
  return {
    listening: async (): Promise<ListeningPorts> => (endpoint ? { metrics: await endpoint.listening } : {}),
    shutdown: async () => {
      await Promise.all([sdk?.shutdown(), meterProvider?.shutdown(), endpoint?.close()]);
    },
  };
}

/** What a service's start-service module exports. */
export interface ServiceModule {
  startService(env: Record<string, string | undefined>, telemetry: Telemetry): Promise<void>;
}

/**
 * A service's main: starts telemetry from the environment, then `load`s the service (its
 * start-service module, required only now so that what telemetry instruments loads after
 * it) and starts it; a start that fails prints why and exits 1.
 */
export function launchService(serviceName: string, load: () => ServiceModule): void {
  const telemetry = startTelemetry({
    serviceName,
    otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    metricsPort: process.env.METRICS_PORT,
    metricsHost: process.env.METRICS_HOST,
  });
  load()
    .startService(process.env, telemetry)
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
