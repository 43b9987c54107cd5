import { z } from 'zod';
import { commonConfig, dataServiceConfig, parseConfig } from '@acs/service-kit';

export { SERVICE_NAME } from './service-name';
/** This service's PostgreSQL schema. */
export const DB_SCHEMA = 'interactions';

const schema = z.object({
  ...commonConfig,
  ...dataServiceConfig,
  GRPC_ADDRESS: z.string().default('127.0.0.1:50057'),
  /** The command an invocation names (GetInvocableCommand). */
  COMMAND_REGISTRY_GRPC_URL: z.string().default('127.0.0.1:50051'),
  /** The place of an invocation: channel, member, permissions, the command decision (DescribeInvocationContext). */
  PERMISSIONS_GRPC_URL: z.string().default('127.0.0.1:50052'),
  /** The application, its delivery and signing key, the invoker, installs (DescribeInvocation). */
  OAUTH_GRPC_URL: z.string().default('127.0.0.1:50053'),
  /**
   * Test setting: how long an application has for its initial response (Discord: 3 s);
   * a pending interaction fails with reason 2 TIMEOUT after it.
   */
  INTERACTION_RESPONSE_DEADLINE_MS: z.coerce.number().int().positive().default(3000),
  /** Test setting: how long an interaction token works for follow-ups and edits (Discord: 15 min). */
  INTERACTION_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  /** How often pending interactions past their deadline are looked for (those whose timer was lost in a restart). */
  INTERACTION_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(1000),
  /**
   * How long a POST to an interactions endpoint may take. Past the response deadline the
   * answer no longer counts, so by default it is that deadline.
   */
  INTERACTION_DELIVERY_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /** Sockets kept per interactions endpoint. */
  INTERACTION_DELIVERY_SOCKETS_PER_ENDPOINT: z.coerce.number().int().positive().default(64),
  /**
   * Non-public destinations interactions endpoints may be: comma-separated `loopback`,
   * `private`, `link-local` (the dispatcher's webhook events read the same setting).
   */
  WEBHOOK_ALLOWED_ADDRESSES: z.string().default(''),
  /** The durable consumer of lobby's `lobby.message.created` (linked lobbies' messages posted to their channel). */
  LOBBY_CONSUMER_NAME: z.string().default('interactions-linked-lobbies'),
  /**
   * Guild message search: how long after a guild's first search its messages are indexed
   * (until then a search answers 202 / 110000 with `retry_after`). Short by default so that
   * a client sees both states; 0 indexes at the indexer's next tick.
   */
  SEARCH_INDEX_DELAY_MS: z.coerce.number().int().min(0).default(2000),
  /** How often the search indexer looks for guilds whose index is due. */
  SEARCH_INDEX_INTERVAL_MS: z.coerce.number().int().positive().default(250),
  /** The durable consumer of this service's message events that keeps indexed guilds' search documents current. */
  SEARCH_CONSUMER_NAME: z.string().default('interactions-search-index'),
  /**
   * Where attachments' bytes are (api-gateway writes and serves them, this service deletes
   * those a message no longer has): `file:///abs/dir` or a path (relative to the service's
   * folder: the repository's `.data/blobs` by default), or
   * `s3://KEY:SECRET@bucket/prefix?endpoint=http://host:9000`. api-gateway must name the same store.
   */
  BLOB_STORE_URL: z.string().default('../../.data/blobs'),
  /** How old a blob no attachment names must be before the sweep deletes it (an upload that never became a message). */
  ATTACHMENT_ORPHAN_AGE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60 * 1000),
  /**
   * Most bytes one application may store: its messages (their JSON) and their files,
   * counted when stored and freed when deleted (a deleted message, an edit dropping a file,
   * an expired ephemeral answer). A write past it is refused with 413 / 40005 and stores
   * nothing. 0 turns the quota off.
   */
  APPLICATION_STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024 * 1024),
  /** How often the sweep of orphan blobs and expired ephemeral answers' files runs. */
  ATTACHMENT_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 1000),
});

/** The parsed environment of interactions. */
export type Config = z.infer<typeof schema>;

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return parseConfig(schema, env);
}
