import { fieldError } from '@acs/discord-errors';

/**
 * The shard of a guild among `shardCount` (D:events/gateway.mdx §Sharding:
 * `shard_id = (guild_id >> 22) % num_shards`).
 */
export function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * Whether a bot must pass `shard` to `GET /users/@me/guilds`: an app on large bot sharding,
 * which is what a `max_concurrency` above 1 in its session start limit means (D:events/
 * gateway.mdx §Sharding for Large Bots: only those get an increased `max_concurrency`).
 * Without it the answer is 400 / 50035 at `shard` (discord-api-docs PR #8602: required
 * since August 2025 for apps with large bot sharding).
 */
export function requireGuildsShard(shard: number | undefined, maxConcurrency: number): number | undefined {
  if (shard === undefined && maxConcurrency > 1) {
    throw fieldError('shard', 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  return shard;
}
