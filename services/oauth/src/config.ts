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
  /**
   * The local stack's test setting (`npm start` turns it on; off by default and in the
   * Kubernetes overlays): OIDC identity providers may have an `http://127.0.0.1:<port>`
   * issuer, and their documents may be fetched from loopback. Otherwise an issuer must be
   * an https URL of a public name, and only public addresses are fetched.
   */
  OIDC_ALLOW_LOOPBACK_ISSUERS: z
    .enum(['true', 'false', '1', '0', ''])
    .default('')
    .transform((value) => value === 'true' || value === '1'),
  /** How long one fetch of an OIDC issuer's discovery document or JWKS may take, in ms. */
  OIDC_FETCH_TIMEOUT_MS: z.coerce.number().int().positive().max(30_000).default(3000),
});

/** The parsed environment of oauth. */
export type Config = z.infer<typeof schema>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(schema, env);
}
