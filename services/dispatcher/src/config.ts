import { z } from 'zod';
import { commonConfig, dataServiceConfig, parseConfig } from '@acs/service-kit';
import {
  ALL_MEMBERS_REQUEST_INTERVAL_MS,
  IDENTIFY_CONCURRENCY_WINDOW_MS,
  MAX_CONCURRENCY,
  MAX_IDENTIFIES_PER_DAY,
  PRIVILEGED_INTENTS_GUILD_THRESHOLD,
  SESSION_START_WINDOW_MS,
} from './domain/gateway-codes';
import { compileTrustProxy } from './delivery/gateway/compile-trust-proxy';

export { SERVICE_NAME } from './service-name';
/** This service's PostgreSQL schema. */
export const DB_SCHEMA = 'dispatcher';

const schema = z.object({
  ...commonConfig,
  ...dataServiceConfig,
  /** Durable consumer name; every replica shares it (the stream spreads messages over them). */
  CONSUMER_NAME: z.string().default('dispatcher'),
  /** How long JetStream waits for an ack before redelivering (to another replica after a crash). */
  CONSUMER_ACK_WAIT_MS: z.coerce.number().int().positive().default(30_000),
  GRPC_ADDRESS: z.string().default('127.0.0.1:50055'),
  OAUTH_GRPC_URL: z.string().default('127.0.0.1:50053'),
  PERMISSIONS_GRPC_URL: z.string().default('127.0.0.1:50052'),
  /** Where the WebSocket gateway listens. */
  GATEWAY_HOST: z.string().default('0.0.0.0'),
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** The URL bots are given (`/gateway/bot`, READY's resume_gateway_url); default ws://127.0.0.1:<port>. */
  GATEWAY_PUBLIC_URL: z.string().optional(),
  /**
   * READY's resume_gateway_url, when it must differ from GATEWAY_PUBLIC_URL: sessions live in
   * their replica's memory, so a proxy in front of several replicas gives each its own
   * (`npm start -- --replicas N`: `<entry>/replica/<i>`). Default GATEWAY_PUBLIC_URL.
   */
  GATEWAY_RESUME_URL: z.string().optional(),
  /** Hello's heartbeat_interval; a session missing a heartbeat for 1.5 × this is closed. */
  HEARTBEAT_INTERVAL_MS: z.coerce.number().int().positive().default(41_250),
  /** How long a disconnected session can be resumed. */
  RESUME_WINDOW_MS: z.coerce.number().int().positive().default(120_000),
  /** Dispatches kept per session for Resume. */
  REPLAY_BUFFER_SIZE: z.coerce.number().int().positive().default(1000),
  /** `session_start_limit.total`: Identifies per application per SESSION_START_WINDOW_MS. */
  SESSION_START_LIMIT: z.coerce.number().int().positive().default(MAX_IDENTIFIES_PER_DAY),
  /** The window SESSION_START_LIMIT counts over (Discord: a day). */
  SESSION_START_WINDOW_MS: z.coerce.number().int().positive().default(SESSION_START_WINDOW_MS),
  /** `session_start_limit.max_concurrency`: Identifies per rate-limit key per IDENTIFY_CONCURRENCY_WINDOW_MS. */
  IDENTIFY_MAX_CONCURRENCY: z.coerce.number().int().positive().default(MAX_CONCURRENCY),
  /** The window of IDENTIFY_MAX_CONCURRENCY (Discord: 5 s). */
  IDENTIFY_CONCURRENCY_WINDOW_MS: z.coerce.number().int().positive().default(IDENTIFY_CONCURRENCY_WINDOW_MS),
  /**
   * Privileged intents: an application whose bot is in this many guilds or more needs an
   * intent's full flag (GATEWAY_GUILD_MEMBERS...); below it the _LIMITED flag is enough
   * (Discord: 100 servers, the verification threshold).
   */
  PRIVILEGED_INTENTS_GUILD_THRESHOLD: z.coerce
    .number()
    .int()
    .positive()
    .default(PRIVILEGED_INTENTS_GUILD_THRESHOLD),
  /** One request for ALL members of a guild per bot per this (Discord: 30 s); later ones get RATE_LIMITED. */
  ALL_MEMBERS_REQUEST_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(ALL_MEMBERS_REQUEST_INTERVAL_MS),
  /** A socket that sends neither Identify nor Resume within this after Hello is closed (4003). */
  IDENTIFY_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** Open gateway sockets per client address and replica; more are refused with HTTP 429. 0 = no cap. */
  GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(100),
  /**
   * Which proxies in front of the gateway may name the client in `X-Forwarded-For`
   * (Express's `trust proxy`, as api-gateway reads it): `false` by default, so the
   * socket's peer is the client.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      try {
        return compileTrustProxy(value);
      } catch (error) {
        ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        return z.NEVER;
      }
    }),
  /** Scales every webhook retry delay and the 10-minute budget (tests use 0.01). */
  WEBHOOK_TIME_SCALE: z.coerce.number().positive().default(1),
  /** An endpoint must answer within this (Discord: 3 s). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /** Concurrent requests to one application's endpoint, per replica. */
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().positive().default(8),
  /** Concurrent webhook requests in all, per replica. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().default(256),
  /** Consecutive failed (exhausted) deliveries after which an application's webhooks are disabled. */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().positive().default(5),
  /**
   * How long deliveries claimed by a replica stay its own; after a crash, that long passes
   * before another replica retries them.
   */
  WEBHOOK_LEASE_MS: z.coerce.number().int().positive().default(60_000),
  /** Non-public destinations webhooks may reach: comma-separated `loopback`, `private`, `link-local`. */
  WEBHOOK_ALLOWED_ADDRESSES: z.string().default(''),
});

/** The parsed environment of dispatcher. */
export type Config = z.infer<typeof schema>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(schema, env);
}
