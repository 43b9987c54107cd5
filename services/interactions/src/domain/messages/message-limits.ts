// The limits of a message an interaction posts, as Discord applies them to webhook
// messages (D:resources/message.mdx §Embed Limits; OAS `IncomingWebhookInteractionRequest`,
// `RichEmbed`; UD: content ≤ 2000, embeds ≤ 6000 characters in total).

/** `content`: at most 2000 characters. */
export const MAX_CONTENT_LENGTH = 2000;
/** `embeds`: at most 10 per message. */
export const MAX_EMBEDS = 10;
/** The characters of every embed's title, description, field names and values, footer text and author name together. */
export const MAX_EMBEDS_TOTAL_LENGTH = 6000;
/** An embed's `title`. */
export const MAX_EMBED_TITLE_LENGTH = 256;
/** An embed's `description`. */
export const MAX_EMBED_DESCRIPTION_LENGTH = 4096;
/** An embed's `fields`: at most 25. */
export const MAX_EMBED_FIELDS = 25;
/** An embed field's `name`. */
export const MAX_EMBED_FIELD_NAME_LENGTH = 256;
/** An embed field's `value`. */
export const MAX_EMBED_FIELD_VALUE_LENGTH = 1024;
/** An embed footer's `text`. */
export const MAX_EMBED_FOOTER_TEXT_LENGTH = 2048;
/** An embed author's and provider's `name`. */
export const MAX_EMBED_AUTHOR_NAME_LENGTH = 256;
/** Every URL of an embed. */
export const MAX_EMBED_URL_LENGTH = 2048;
/** An embed's `color`: a 24-bit RGB integer. */
export const MAX_EMBED_COLOR = 0xffffff;
/** `allowed_mentions.users` and `allowed_mentions.roles`: at most 100 ids each. */
export const MAX_ALLOWED_MENTION_IDS = 100;
/** Follow-up messages of an interaction that only a user install authorizes (D §Create Followup Message). */
export const MAX_USER_INSTALL_FOLLOWUPS = 5;

/** Pins per channel: 250 (D:topics/opcodes-and-status-codes.mdx, 30003). */
export const MAX_PINS_PER_CHANNEL = 250;

/** The largest (and default) page of `GET /channels/{id}/messages/pins`: 50 (D:resources/message.mdx). */
export const MAX_PINS_PAGE = 50;

/** The largest page of `GET /channels/{id}/messages`: 100; 50 when `limit` is absent (D:resources/message.mdx). */
export const MAX_MESSAGES_PAGE = 100;
/** A page of `GET /channels/{id}/messages` without `limit`. */
export const DEFAULT_MESSAGES_PAGE = 50;
/** A string `nonce` of Create Message: at most 25 characters (D:resources/message.mdx §Create Message). */
export const MAX_NONCE_LENGTH = 25;
/**
 * How long `enforce_nonce` finds an author's earlier message with the same nonce: Discord
 * says "the past few minutes" (D §Create Message); ACS chooses 5 minutes.
 */
export const NONCE_WINDOW_MS = 5 * 60 * 1000;
/** Users a message's content can mention (`<@id>`) that it resolves: at most 100, as allowed_mentions' lists. */
export const MAX_MENTIONED_USERS = 100;
/** Bulk Delete Messages: 2 to 100 ids (D:resources/message.mdx §Bulk Delete Messages; OAS minItems 2, maxItems 100). */
export const MIN_BULK_DELETE = 2;
export const MAX_BULK_DELETE = 100;
/** Bulk Delete refuses messages older than two weeks (D §Bulk Delete Messages). */
export const BULK_DELETE_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Distinct emojis one message may have reactions of: 20 (D:topics/opcodes-and-status-codes.mdx, 30010). */
export const MAX_REACTION_EMOJIS = 20;
/** Get Reactions' page: 1-100, 25 when `limit` is absent (D:resources/message.mdx §Get Reactions). */
export const MAX_REACTIONS_PAGE = 100;
export const DEFAULT_REACTIONS_PAGE = 25;
/** The longest emoji a reaction route reads (several code points of a ZWJ sequence, in UTF-16). */
export const MAX_EMOJI_LENGTH = 64;
