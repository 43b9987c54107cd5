export { toGrpcError, fromGrpcError, isServiceError, carriesErrorDetail } from './grpc-errors';
export { PeerUnavailableError, PeerTimeoutError, fromTransportFailure } from './peer-errors';
export { runWithDeadline, currentDeadline } from './deadline-context';
export { RepeatedErrorLog, type RepeatedErrorLogOptions } from './repeated-error-log';
export {
  parseConfig,
  commonConfig,
  dataServiceConfig,
  ConfigError,
  serviceDatabaseUrl,
} from './parse-config';
export { createDatabasePool } from './create-database-pool';
export {
  withTransaction,
  beginStatement,
  type IsolationLevel,
  type TransactionOptions,
} from './with-transaction';
export { StatementParameters } from './statement-parameters';
export {
  holdSnowflakeProcessId,
  leaseSnowflakeProcessId,
  type SnowflakeLease,
} from './lease-snowflake-process-id';
export { createLogger, traceFields, type Logger } from './create-logger';
export { startTelemetry, type Telemetry, type TelemetryOptions } from './start-telemetry';
export {
  recordHttpMetrics,
  instrumentsOf,
  durationHistogram,
  statusClass,
  serveMetrics,
  ACS_METER,
  DURATION_BUCKETS_SECONDS,
  LAG_BUCKETS_SECONDS,
  type MetricsEndpoint,
} from './metrics';
export { installGracefulShutdown, type ShutdownStep } from './graceful-shutdown';
export {
  createGrpcServer,
  CONNECTION_AGE_GRACE_MS,
  type GrpcServer,
  type ServiceBinding,
  type UnaryHandlers,
} from './create-grpc-server';
export { callPeer } from './call-peer';
export {
  callUnary,
  createGrpcClient,
  DEFAULT_DEADLINE_MS,
  LONGEST_CALL_MS,
  CLIENT_CHANNEL_OPTIONS,
  type GrpcClientConstructor,
} from './call-unary';
export {
  reportListening,
  LISTENING_MESSAGE,
  type ListeningMessage,
  type ListeningPorts,
} from './report-listening';
export {
  startServiceRuntime,
  type DatabaseConfig,
  type DatabaseParts,
  type DatabaseRuntime,
  type RuntimeConfig,
  type ServiceRuntime,
  type ShutdownPhase,
  type SnowflakeRuntime,
} from './start-service-runtime';
