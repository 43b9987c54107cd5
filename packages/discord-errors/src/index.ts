export * from './discord-error';
export * from './oauth2-error';
export { BaseErrorCode } from './base-error-codes';
export { parseJsonBody, parseJsonObject, isJsonObject, type JsonObject } from './parse-json-body';
export { readPathSnowflake, snowflakeErrorLeaf } from './read-path-snowflake';
export { SocialSdkErrorCode } from './social-sdk-error-codes';
