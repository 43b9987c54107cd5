import { startTelemetry } from '@acs/service-kit/telemetry';
import { SERVICE_NAME } from './service-name';

// Telemetry starts before anything it instruments (grpc, pg) is loaded.
const telemetry = startTelemetry({
  serviceName: SERVICE_NAME,
  otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
  metricsPort: process.env.METRICS_PORT,
  metricsHost: process.env.METRICS_HOST,
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startService } = require('./start-service') as typeof import('./start-service');

startService(process.env, telemetry).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
