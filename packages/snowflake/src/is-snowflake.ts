/** Discord's epoch, the first millisecond of 2015 (reference §Snowflakes). */
export const DISCORD_EPOCH = 1420070400000n;

const MAX_SNOWFLAKE = (1n << 64n) - 1n;
const SNOWFLAKE_PATTERN = /^(0|[1-9][0-9]{0,19})$/;

/** Whether a string is a snowflake as the API accepts it: decimal, no sign, fits in 64 bits. */
export function isSnowflake(value: string): boolean {
  return SNOWFLAKE_PATTERN.test(value) && BigInt(value) <= MAX_SNOWFLAKE;
}

/** The creation time a snowflake encodes, in milliseconds since the Unix epoch. */
export function snowflakeTimestamp(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}
