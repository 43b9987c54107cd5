import { z } from 'zod';
import { commonConfig, parseConfig } from '@acs/service-kit';
import { readTrustProxy } from './domain/read-trust-proxy';

export { SERVICE_NAME } from './service-name';

const schema = z.object({
  ...commonConfig,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Credential of the admin API (`Authorization: Admin <token>`). */
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters'),
  COMMAND_REGISTRY_GRPC_URL: z.string().default('127.0.0.1:50051'),
  PERMISSIONS_GRPC_URL: z.string().default('127.0.0.1:50052'),
  OAUTH_GRPC_URL: z.string().default('127.0.0.1:50053'),
  DISPATCHER_GRPC_URL: z.string().default('127.0.0.1:50055'),
  INTERACTIONS_GRPC_URL: z.string().default('127.0.0.1:50057'),
  LOBBY_GRPC_URL: z.string().default('127.0.0.1:50054'),
  /**
   * The web console at `/console/` (`true` or `false`): on for a local stack, off in the
   * production overlay unless enabled there. It needs the admin token to show anything.
   */
  CONSOLE_ENABLED: z.enum(['true', 'false']).default('true'),
  /** The console's build (the `console` workspace's dist), relative to the service's folder. */
  CONSOLE_DIR: z.string().default('../../console/dist'),
  /** Largest request body accepted, in bytes (larger → 413). */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /**
   * Where messages' files are stored and served from: `file:///abs/dir` or a path (relative
   * to the service's folder: the repository's `.data/blobs` by default), or
   * `s3://KEY:SECRET@bucket/prefix?endpoint=http://host:9000`. interactions must name the same store.
   */
  BLOB_STORE_URL: z.string().default('../../.data/blobs'),
  /** The public base URL attachments are served under (`https://acs.example`); unset: each request's scheme and host. */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** How long a request's calls to services may take in all; each call ends by then. */
  REQUEST_DEADLINE_MS: z.coerce.number().int().min(100).default(10_000),
  /** How long a client may take to send a whole request (Node's requestTimeout; its default is 300 s). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /** How long a client may take to send its headers (Node's headersTimeout). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  /** How long an idle kept-alive connection stays open: above the idle timeout of a balancer in front. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(65_000),
  /** How fast one client address may have large bodies (64 KiB or more) read, in bytes a second. */
  LARGE_BODY_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
  /** Requests per second per credential across the public API (Discord: 50); 0 turns it off. */
  RATE_LIMIT_GLOBAL_PER_SECOND: z.coerce.number().int().min(0).default(50),
  /** Requests per credential, route and guild in each window; 0 turns per-route limits off. */
  RATE_LIMIT_ROUTE_LIMIT: z.coerce.number().int().min(0).default(50),
  /** Whole seconds: Redis counts windows by their expiry in seconds. */
  RATE_LIMIT_ROUTE_WINDOW_SECONDS: z.coerce.number().int().positive().default(1),
  /**
   * Requests per second per credential and channel to the reaction routes, one bucket for
   * the six of them (Discord: 1 per 0.25 s, as the libraries observe it); 0 counts them
   * with RATE_LIMIT_ROUTE_LIMIT, each route apart.
   */
  RATE_LIMIT_REACTIONS_PER_SECOND: z.coerce.number().int().min(0).default(4),
  /**
   * Requests per interaction token in each window of RATE_LIMIT_WEBHOOK_WINDOW_SECONDS to
   * its write routes (the callback, follow-ups, edits), one bucket for them whoever sends
   * (Discord's webhook limit, which interaction webhooks share: 5 per 2 s as the libraries
   * observe it); 0 counts them with RATE_LIMIT_ROUTE_LIMIT, each route apart.
   */
  RATE_LIMIT_WEBHOOK_LIMIT: z.coerce.number().int().min(0).default(5),
  RATE_LIMIT_WEBHOOK_WINDOW_SECONDS: z.coerce.number().int().positive().default(2),
  /**
   * Units of work per caller each second, which invocations spend (RATE_LIMIT_INVOCATION_COST
   * each): what one user may make the stack do, whatever its requests are; 0 turns it off.
   */
  RATE_LIMIT_WORK_PER_SECOND: z.coerce.number().int().min(0).default(50),
  /** Units of work one invocation (`POST /interactions`) costs its user: 10, so 5 a second. */
  RATE_LIMIT_INVOCATION_COST: z.coerce.number().int().min(0).default(10),
  /**
   * Redis, where the rate limits and the invalid-request limit count, shared by every
   * replica (`redis://[user:password@]host:port[/db]`); unset: each process counts alone.
   */
  REDIS_URL: z.preprocess((value) => (value === '' ? undefined : value), z.string().url().optional()),
  /** Prefix of every key in Redis, so that deployments sharing one Redis count apart. */
  REDIS_KEY_PREFIX: z.string().default('acs:'),
  /**
   * How many replicas share the limits: while Redis is unreachable each counts in memory
   * its share, the limit divided by this (rounded up).
   */
  RATE_LIMIT_REPLICAS: z.coerce.number().int().positive().default(1),
  /**
   * The lobby development limits, per application (B2): 100 writes (create, join, update,
   * members, bulk, messages) and 20 channel links per route in each window of 2 h; 0 = off.
   */
  LOBBY_RATE_LIMIT: z.coerce.number().int().min(0).default(100),
  LOBBY_LINK_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  LOBBY_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(7200),
  /**
   * Entries of the request log (`GET /admin/applications/{id}/requests`) kept per
   * application: the newest. In Redis when REDIS_URL is set, else in memory.
   */
  REQUEST_LOG_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** NATS, where oauth's events say when an application's credentials changed. */
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  EVENTS_STREAM: z.string().default('ACS_EVENTS'),
  EVENTS_SUBJECT_PREFIX: z.string().default('acs'),
  /** Longest time a resolved token is trusted without asking oauth again. */
  TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  /** How long a token oauth called unknown or revoked is refused without asking again; 0 = always ask. */
  UNKNOWN_TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  /** 401, 403 and 429 answers (shared-scope 429s excepted) per client address before it is blocked; 0 = off. */
  INVALID_REQUEST_LIMIT: z.coerce.number().int().min(0).default(10_000),
  /** The window of INVALID_REQUEST_LIMIT, and so the longest block (Discord: 10 minutes). */
  INVALID_REQUEST_WINDOW_SECONDS: z.coerce.number().int().positive().default(600),
  /**
   * Which proxies in front may name the client in `X-Forwarded-For` (Express's `trust
   * proxy`): `false` by default, so the socket's peer is the client.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      try {
        return readTrustProxy(value);
      } catch (error) {
        ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        return z.NEVER;
      }
    }),
});

const refined = schema.refine((config) => config.HTTP_HEADERS_TIMEOUT_MS <= config.HTTP_REQUEST_TIMEOUT_MS, {
  message: 'HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS',
  path: ['HTTP_HEADERS_TIMEOUT_MS'],
});

/** The parsed environment of api-gateway. */
export type Config = z.infer<typeof refined>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(refined, env);
}
