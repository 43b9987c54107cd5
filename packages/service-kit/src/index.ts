export { toGrpcError, fromGrpcError, isServiceError } from './grpc-errors';
export {
  parseConfig,
  commonConfig,
  dataServiceConfig,
  ConfigError,
  serviceDatabaseUrl,
} from './parse-config';
export { createDatabasePool } from './create-database-pool';
export {
  holdSnowflakeProcessId,
  leaseSnowflakeProcessId,
  type SnowflakeLease,
} from './lease-snowflake-process-id';
export { createLogger, type Logger } from './create-logger';
export { startTelemetry, type Telemetry } from './start-telemetry';
export { installGracefulShutdown, type ShutdownStep } from './graceful-shutdown';
export {
  createGrpcServer,
  type GrpcServer,
  type ServiceBinding,
  type UnaryHandlers,
} from './create-grpc-server';
export {
  callUnary,
  createGrpcClient,
  DEFAULT_DEADLINE_MS,
  CLIENT_CHANNEL_OPTIONS,
  type GrpcClientConstructor,
} from './call-unary';
