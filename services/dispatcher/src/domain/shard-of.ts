/** The shard a guild belongs to: `(guild_id >> 22) % num_shards` (D:events/gateway.mdx Sharding). */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}
