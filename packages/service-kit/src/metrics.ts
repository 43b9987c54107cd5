import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics, ValueType, type Histogram, type Meter, type MeterProvider } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';

/** The meter of every ACS instrument (service-kit's RED metrics, the event pipeline's lag). */
export const ACS_METER = 'acs';

/**
 * Bucket bounds, in seconds, of every duration histogram: from 1 ms (a cached token, a
 * local RPC) to 10 s (a request at its deadline), as OTel's semantic conventions advise for
 * `http.server.request.duration`.
 */
export const DURATION_BUCKETS_SECONDS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** Bucket bounds, in seconds, of the event pipeline's lag: from 1 ms to an hour behind. */
export const LAG_BUCKETS_SECONDS = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600,
];

/**
 * Instruments made once per meter provider: the global one changes when telemetry starts
 * (and in tests), and an instrument of the no-op provider met before would stay silent.
 */
export function instrumentsOf<T>(make: (meter: Meter) => T): () => T {
  const made = new WeakMap<MeterProvider, T>();
  return () => {
    const provider = metrics.getMeterProvider();
    let instruments = made.get(provider);
    if (!instruments) {
      instruments = make(provider.getMeter(ACS_METER));
      made.set(provider, instruments);
    }
    return instruments;
  };
}

/** A duration histogram in seconds with the shared buckets. */
export function durationHistogram(meter: Meter, name: string, description: string): Histogram {
  return meter.createHistogram(name, {
    description,
    unit: 's',
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_SECONDS },
  });
}

/** `2xx`, `4xx`, `5xx`…: the class of an HTTP status, a label of few values. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
]);

/** What the middleware reads of Express's request: the matched route's pattern, when one matched. */
type RoutedRequest = IncomingMessage & { baseUrl?: string; route?: { path?: unknown } };

const httpInstruments = instrumentsOf((meter) => ({
  duration: durationHistogram(meter, 'http.server.request.duration', 'Duration of HTTP server requests'),
}));

/**
 * An Express middleware recording `http.server.request.duration` (seconds) of every
 * request once its response is sent (or its connection closes): by `http.request.method`,
 * `http.route` (the route's pattern, `/api/v10/applications/:application_id/commands`,
 * never the path with its ids; absent when no route matched) and `http.response.status_class`
 * (`2xx`, `4xx`, `5xx`), plus `http.response.status_code`. Its count by status class is
 * the request rate and the error rates (4xx and 5xx apart). Mount it first.
 */
export function recordHttpMetrics() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = performance.now();
    let recorded = false;
    const record = (): void => {
      if (recorded) return;
      recorded = true;
      const routed = req as RoutedRequest;
      const pattern = routed.route?.path;
      const method = req.method && KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
      // A response never sent (the client went away first) has no status: class `aborted`.
      const status = res.headersSent ? res.statusCode : 0;
      httpInstruments().duration.record((performance.now() - started) / 1000, {
        'http.request.method': method,
        ...(typeof pattern === 'string' ? { 'http.route': `${routed.baseUrl ?? ''}${pattern}` } : {}),
        'http.response.status_code': status,
        'http.response.status_class': status === 0 ? 'aborted' : statusClass(status),
      });
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}

/** A Prometheus endpoint serving the metrics of a meter provider. */
export interface MetricsEndpoint {
  exporter: PrometheusExporter;
  /** The bound port, once listening. */
  listening: Promise<number>;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` in Prometheus' text format on `port` (0: a port the OS chooses,
 * reported by `listening`). The exporter is a pull reader: give it to the meter provider.
 */
export function serveMetrics(port: number, host: string): MetricsEndpoint {
  const exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/metrics')
      exporter.getMetricsRequestHandler(req, res);
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  const listening = new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
  // A failure to bind is reported through `listening`; never as an unhandled rejection.
  listening.catch(() => undefined);
  return {
    exporter,
    listening,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** METRICS_PORT as read at start: unset or empty is off, else a port (0: any free one). */
export function parseMetricsPort(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid configuration:\n  METRICS_PORT: expected a port (0-65535), got ${value}`);
  return port;
}
