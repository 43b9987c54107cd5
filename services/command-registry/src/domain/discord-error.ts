// The one error type of ACS lives in service-kit, whose gRPC translation recognises it.
export { DiscordError, type DiscordErrorBody, type ErrorLeaf, type ErrorTree } from '@acs/service-kit';
