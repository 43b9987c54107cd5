import { z } from 'zod';
import { commonConfig, dataServiceConfig, parseConfig } from '@acs/service-kit';

export { SERVICE_NAME } from './service-name';
/** This service's PostgreSQL schema. */
export const DB_SCHEMA = 'lobby';

const schema = z.object({
  ...commonConfig,
  ...dataServiceConfig,
  GRPC_ADDRESS: z.string().default('127.0.0.1:50054'),
  /** Users (do the members exist, the author of a message) and the bot user (GetUser). */
  OAUTH_GRPC_URL: z.string().default('127.0.0.1:50053'),
  /** Channel linking: the channel, and whether the caller may manage it (CheckPermissions). */
  PERMISSIONS_GRPC_URL: z.string().default('127.0.0.1:50052'),
  /**
   * Test setting: how many milliseconds one second of `idle_timeout_seconds` lasts (1000).
   * A test sets 100 to see a lobby with the minimum 5 s timeout removed after 0.5 s.
   */
  LOBBY_IDLE_SECOND_MS: z.coerce.number().int().positive().default(1000),
  /** How often lobbies past their idle timeout, and messages past 72 hours, are removed. */
  LOBBY_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(5000),
  /** The durable consumer (shared by the replicas) that moves merged provisional accounts' memberships. */
  MERGE_CONSUMER_NAME: z.string().default('lobby-merges'),
});

/** The parsed environment of lobby. */
export type Config = z.infer<typeof schema>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(schema, env);
}
