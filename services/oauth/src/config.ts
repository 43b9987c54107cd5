import { z } from 'zod';
import { commonConfig, dataServiceConfig, parseConfig } from '@acs/service-kit';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  MAX_AUTHORIZATION_CODE_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from './domain/limits';

export { SERVICE_NAME } from './service-name';
/** This service's PostgreSQL schema. */
export const DB_SCHEMA = 'oauth';

const schema = z.object({
  ...commonConfig,
  ...dataServiceConfig,
  GRPC_ADDRESS: z.string().default('127.0.0.1:50053'),
  PERMISSIONS_GRPC_URL: z.string().default('127.0.0.1:50052'),
  /** Lifetimes in seconds of authorization codes, access tokens and refresh tokens. */
  AUTHORIZATION_CODE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .max(MAX_AUTHORIZATION_CODE_TTL_SECONDS)
    .default(AUTHORIZATION_CODE_TTL_SECONDS),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(ACCESS_TOKEN_TTL_SECONDS),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(REFRESH_TOKEN_TTL_SECONDS),
  /**
   * How long codes, tokens and grants are kept once dead (expired, used or revoked) before
   * pruning deletes them. At least an hour: longer than any code lives, so that a second use
   * of a code within its lifetime still finds it and revokes what its first use granted.
   */
  CREDENTIALS_RETENTION_HOURS: z.coerce.number().int().positive().default(24),
});

/** The parsed environment of oauth. */
export type Config = z.infer<typeof schema>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(schema, env);
}
