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
