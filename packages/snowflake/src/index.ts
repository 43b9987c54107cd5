export { createSnowflakeGenerator, type SnowflakeGenerator } from './create-snowflake-generator';
export { isSnowflake, snowflakeTimestamp, DISCORD_EPOCH } from './is-snowflake';
