export { createSnowflakeGenerator, type SnowflakeGenerator } from './create-snowflake-generator';
export {
  checkSnowflake,
  isSnowflake,
  snowflakeTimestamp,
  DISCORD_EPOCH,
  MAX_SNOWFLAKE,
  type SnowflakeCheck,
} from './is-snowflake';
