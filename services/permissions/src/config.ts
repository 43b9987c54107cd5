import { z } from 'zod';
import { commonConfig, dataServiceConfig, parseConfig } from '@acs/service-kit';

export { SERVICE_NAME } from './service-name';
/** This service's PostgreSQL schema. */
export const DB_SCHEMA = 'permissions';

const schema = z.object({
  ...commonConfig,
  ...dataServiceConfig,
  GRPC_ADDRESS: z.string().default('127.0.0.1:50052'),
});

/** The parsed environment of permissions. */
export type Config = z.infer<typeof schema>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(schema, env);
}
