// The limits and fixed values of this service, in one place. Sources: the admin API
// (docs/admin-api.md), facts §11 (OAuth2) and the OAS schemas.

import { PERMISSION_FLAGS } from '@acs/validation';

export const MIN_APPLICATION_NAME_LENGTH = 2;
export const MAX_APPLICATION_NAME_LENGTH = 32;
export const MAX_REDIRECT_URIS = 10;
/** Longest URL we store (redirect URIs, interaction and event endpoints). */
export const MAX_URL_LENGTH = 2048;

export const MIN_USERNAME_LENGTH = 2;
export const MAX_USERNAME_LENGTH = 32;
export const MIN_GLOBAL_NAME_LENGTH = 1;
export const MAX_GLOBAL_NAME_LENGTH = 32;
/** A server tag (a user's `primary_guild.tag`) is at most 4 characters (OAS `UserPrimaryGuildResponse`). */
export const MAX_SERVER_TAG_LENGTH = 4;
export const MAX_EMAIL_LENGTH = 320;
export const DEFAULT_LOCALE = 'en-US';
/** Premium types: 0 none, 1 Nitro Classic, 2 Nitro, 3 Nitro Basic (OAS `PremiumTypes`). */
export const PREMIUM_TYPES = [0, 1, 2, 3] as const;

/** Integration types: 0 guild install, 1 user install. */
export const INTEGRATION_TYPES = [0, 1] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const GUILD_INSTALL = 0;
export const USER_INSTALL = 1;

/** Authorization codes are single-use and expire 100 s after creation (facts §11, GH#2526). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 100;
/** The longest lifetime a deployment may give its codes (`AUTHORIZATION_CODE_TTL_SECONDS`). */
export const MAX_AUTHORIZATION_CODE_TTL_SECONDS = 600;
/** Access tokens live 7 days (`expires_in: 604800`, facts §11). */
export const ACCESS_TOKEN_TTL_SECONDS = 604_800;
/**
 * Refresh tokens: not documented by the real service; ours expire 30 days after issue and
 * are single-use (each refresh rotates them), so an authorization idle for 30 days ends.
 */
export const REFRESH_TOKEN_TTL_SECONDS = 2_592_000;
/** Access and refresh tokens: 30 random URL-safe characters (180 bits), the real service's length. */
export const OAUTH2_TOKEN_LENGTH = 30;
/** PKCE code verifier length (RFC 7636 §4.1: 43-128 unreserved characters). */
export const MIN_CODE_VERIFIER_LENGTH = 43;
export const MAX_CODE_VERIFIER_LENGTH = 128;
/** The longest time api-gateway may cache a resolved token. */
export const MAX_TOKEN_CACHE_SECONDS = 60;
/** Longest `state` we carry back to the redirect URI. */
export const MAX_STATE_LENGTH = 1024;
/** PKCE code challenge length (RFC 7636 §4.2: 43-128 unreserved characters). */
export const MIN_CODE_CHALLENGE_LENGTH = 43;
export const MAX_CODE_CHALLENGE_LENGTH = 128;

/** MANAGE_GUILD (1 << 5): what a user needs to install an application in a guild. */
export const MANAGE_GUILD = PERMISSION_FLAGS.MANAGE_GUILD;
/** Largest permission bit set we accept: any 64-bit set. */
export const MAX_PERMISSIONS = (1n << 64n) - 1n;

/** An application's description (OAS `ApplicationFormPartial.description`). */
export const MAX_APPLICATION_DESCRIPTION_LENGTH = 400;
/** An application's tags: at most 5, each at most 20 characters, no repeats. */
export const MAX_APPLICATION_TAGS = 5;
export const MAX_APPLICATION_TAG_LENGTH = 20;
/** The scopes an install link may ask for (OAS `ApplicationOAuth2InstallParams.scopes`). */
export const INSTALL_PARAMS_SCOPES = ['applications.commands', 'bot'] as const;
/** The largest permission set an install link may ask for (OAS: 2^54 - 1). */
export const MAX_INSTALL_PERMISSIONS = (1n << 54n) - 1n;

/**
 * The application flags a bot may change itself: GATEWAY_PRESENCE_LIMITED (1 << 13),
 * GATEWAY_GUILD_MEMBERS_LIMITED (1 << 15) and GATEWAY_MESSAGE_CONTENT_LIMITED (1 << 19),
 * the only ones Discord lets `PATCH /applications/@me` update.
 */
export const BOT_SETTABLE_FLAGS = (1 << 13) | (1 << 15) | (1 << 19);

/** Event webhook status (OAS `ApplicationEventWebhooksStatus`). */
export const EVENT_WEBHOOKS_DISABLED = 1;
export const EVENT_WEBHOOKS_ENABLED = 2;
export const EVENT_WEBHOOKS_DISABLED_BY_DISCORD = 3;

/** Users one ListUsers may ask for: a Guild Members Chunk's 1,000 members. */
export const MAX_LISTED_USERS = 1000;
