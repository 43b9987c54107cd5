// Limits of lobbies (FACTS §13; interactions-lobbies-monetization.md §B1, the ACS choices).

/** Metadata: at most this many keys (OAS, UD)… */
export const METADATA_MAX_KEYS = 25;
/** …each key and each value at most this long (OAS, UD)… */
export const METADATA_MAX_ENTRY_LENGTH = 1024;
/** …and keys and values together at most this long (D): the strictest reading of the three. */
export const METADATA_MAX_TOTAL_LENGTH = 1000;
/** Members of one lobby. */
export const MAX_MEMBERS = 1000;
/** Lobbies one user is a member of, per application. */
export const MAX_LOBBIES_PER_USER = 100;
/** Members given in one POST /lobbies, PATCH or bulk body. */
export const MAX_MEMBERS_PER_BODY = 25;
/** `idle_timeout_seconds`: 5 s to 7 days, 300 by default (UD). */
export const MIN_IDLE_TIMEOUT_SECONDS = 5;
export const MAX_IDLE_TIMEOUT_SECONDS = 604_800;
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 300;
/** A secret of PUT /lobbies: at most 250 characters; it finds its lobby for 30 days. */
export const MAX_SECRET_LENGTH = 250;
export const SECRET_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** `additional_name`: 1 to 80 characters. */
export const MAX_ADDITIONAL_NAME_LENGTH = 80;
/** `override_event_webhooks_url`: at most 512 characters (OAS). */
export const MAX_WEBHOOK_URL_LENGTH = 512;
/** Message content: non-empty, at most 4000 characters (OAS SDKMessageRequest). */
export const MAX_CONTENT_LENGTH = 4000;
/** History: GET messages answers 1 to 200, 50 by default, of the last 72 hours. */
export const MAX_HISTORY_LIMIT = 200;
export const DEFAULT_HISTORY_LIMIT = 50;
export const HISTORY_WINDOW_MS = 72 * 3600 * 1000;
/** Moderation metadata: ≤ 5 keys, key ≤ 1024, value ≤ 2000 (B3). */
export const MODERATION_MAX_KEYS = 5;
export const MODERATION_MAX_KEY_LENGTH = 1024;
export const MODERATION_MAX_VALUE_LENGTH = 2000;

/** Member flag CanLinkLobby (the only allowed value, OAS enum [1]). */
export const CAN_LINK_LOBBY = 1 << 0;
/** Lobby flag REQUIRE_APPLICATION_AUTHORIZATION (OAS enum [1]). */
export const REQUIRE_APPLICATION_AUTHORIZATION = 1 << 0;
/** The flags of every lobby message (the LOBBY_MESSAGE_CREATE example's 65536 = 1 << 16). */
export const LOBBY_MESSAGE_FLAGS = 1 << 16;
