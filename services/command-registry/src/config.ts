import { z } from 'zod';
import { commonConfig, dataServiceConfig, parseConfig } from '@acs/service-kit';
import { DAILY_CREATES_WINDOW_SECONDS } from './domain/create-quota';

export { SERVICE_NAME } from './service-name';
/** This service's PostgreSQL schema. */
export const DB_SCHEMA = 'registry';

const schema = z.object({
  ...commonConfig,
  ...dataServiceConfig,
  GRPC_ADDRESS: z.string().default('127.0.0.1:50051'),
  OAUTH_GRPC_URL: z.string().default('127.0.0.1:50053'),
  /** The create quota's window (a UTC day); tests shorten it to see the quota reset. */
  COMMAND_CREATES_WINDOW_SECONDS: z.coerce.number().int().positive().default(DAILY_CREATES_WINDOW_SECONDS),
});

/** The parsed environment of command-registry. */
export type Config = z.infer<typeof schema>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(schema, env);
}
