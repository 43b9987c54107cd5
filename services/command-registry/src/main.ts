import { launchService } from '@acs/service-kit/telemetry';
import { SERVICE_NAME } from './service-name';

// Telemetry starts first: start-service, and what telemetry instruments (grpc, pg, http), load after it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
launchService(SERVICE_NAME, () => require('./start-service') as typeof import('./start-service'));
