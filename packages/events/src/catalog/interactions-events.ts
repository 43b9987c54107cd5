import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/**
 * Who an interaction's events go to: the invoking user (their gateway sessions: only
 * `session_id` when the invocation named one, else every session of the user) and, for
 * the bot, the application.
 */
const interactionAudience = {
  interaction_id: snowflake,
  application_id: snowflake,
  /** The invoking user. */
  user_id: snowflake,
  /** The user's gateway session named by the invocation (`session_id`); null for all of them. */
  session_id: z.string().nullable(),
  /** The invocation's `nonce`, echoed in the user's events; null when none was sent. */
  nonce: z.string().nullable(),
  /** Null outside a guild (the bot's shard is computed from it; DMs go to shard 0). */
  guild_id: snowflake.nullable(),
  channel_id: snowflake,
};

/**
 * A user invoked a command (or its autocomplete): the user's session gets
 * INTERACTION_CREATE `{id, nonce}`; when `bot_payload` is set (the application has no
 * interactions endpoint), the bot's session on the guild's shard gets INTERACTION_CREATE
 * with it: the full interaction object, token included (A1).
 */
export const interactionCreated = z.object({
  ...interactionAudience,
  /** Interaction type: 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 AUTOCOMPLETE, 5 MODAL_SUBMIT. */
  type: z.number().int(),
  bot_payload: z.record(z.string(), z.unknown()).nullable(),
});

/** The application acknowledged the interaction in time: INTERACTION_SUCCESS `{id, nonce}` to the user. */
export const interactionSucceeded = z.object(interactionAudience);

/**
 * The interaction failed: INTERACTION_FAILURE `{id, nonce, reason_code, reason}` to the user
 * (reason 1 UNKNOWN: delivery failed; 2 TIMEOUT: no initial response within the deadline).
 * `reason` (ACS extension) says exactly why, as the admin timeline and `?wait=true` do.
 */
export const interactionFailed = z.object({
  ...interactionAudience,
  reason_code: z.number().int(),
  reason: z.string().optional(),
});

/** The application answered an autocomplete: APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE `{choices, nonce}` to the user. */
export const autocompleteAnswered = z.object({
  ...interactionAudience,
  choices: z.array(z.record(z.string(), z.unknown())),
});

/**
 * The application answered with a modal (callback 9): INTERACTION_MODAL_CREATE `{id,
 * channel_id, custom_id, application, title, components, nonce}` to the user (A8).
 */
export const modalCreated = z.object({
  ...interactionAudience,
  custom_id: z.string(),
  title: z.string(),
  components: z.array(z.record(z.string(), z.unknown())),
  /** The application as the user's client shows it over the modal (`id`, `name`, `icon`...). */
  application: z.record(z.string(), z.unknown()),
});

/** Who may see a message an interaction produced. */
const messageAudience = {
  application_id: snowflake,
  channel_id: snowflake,
  /** Null in a DM or group DM. */
  guild_id: snowflake.nullable(),
  /**
   * Set for an ephemeral message (flag 64): only this user's sessions (and the bot) see it;
   * null for everyone who can view the channel.
   */
  ephemeral_user_id: snowflake.nullable(),
  /** In a DM or group DM: every member's user id; empty in a guild. */
  recipient_ids: z.array(snowflake),
};

/** An interaction response or follow-up was posted: MESSAGE_CREATE with `message`. */
export const messageCreated = z.object({
  ...messageAudience,
  /** The message object (type 20 or 23, author the bot user, interaction_metadata...). */
  message: z.record(z.string(), z.unknown()),
});

/** A message was edited (or a deferred response got its content): MESSAGE_UPDATE with `message`. */
export const messageUpdated = messageCreated;

/** A message was deleted: MESSAGE_DELETE `{id, channel_id, guild_id?}`. */
export const messageDeleted = z.object({ ...messageAudience, message_id: snowflake });

/**
 * A message was pinned or unpinned (`PUT`/`DELETE /channels/{id}/messages/pins/{id}`):
 * CHANNEL_PINS_UPDATE `{guild_id?, channel_id, last_pin_timestamp}` to everyone who can view
 * the channel (a DM's recipients) and to the bots of `application_ids`.
 */
export const channelPinsUpdated = z.object({
  /** The bots told: the pinned message's application, and the pinning bot's when a bot pinned. */
  application_ids: z.array(snowflake),
  channel_id: snowflake,
  /** Null in a DM or group DM. */
  guild_id: snowflake.nullable(),
  /** In a DM or group DM: every member's user id; empty in a guild. */
  recipient_ids: z.array(snowflake),
  /** When the channel's most recent pin was made (ISO 8601); null when none is left. */
  last_pin_timestamp: z.string().nullable(),
});

/** Who may see a channel message: everyone who can view the channel (a DM's recipients). */
const channelMessageAudience = {
  channel_id: snowflake,
  /** Null in a DM or group DM. */
  guild_id: snowflake.nullable(),
  /** In a DM or group DM: every member's user id; empty in a guild. */
  recipient_ids: z.array(snowflake),
};

/**
 * A message was sent with `POST /channels/{id}/messages` (by a bot or a user):
 * MESSAGE_CREATE with `message` to the users who may view the channel and to the bots of
 * the guild that may (GUILD_MESSAGES; content blanked without MESSAGE_CONTENT unless the
 * message is the bot's own or mentions it), in a DM to its recipients (DIRECT_MESSAGES).
 */
export const channelMessageCreated = z.object({
  ...channelMessageAudience,
  /** The message object (with `nonce` when it was sent with one). */
  message: z.record(z.string(), z.unknown()),
});

/** A message was edited through the channel route: MESSAGE_UPDATE, to the same audience. */
export const channelMessageUpdated = channelMessageCreated;

/** A message was deleted through the channel route: MESSAGE_DELETE `{id, channel_id, guild_id?}`. */
export const channelMessageDeleted = z.object({ ...channelMessageAudience, message_id: snowflake });

/**
 * Messages were deleted at once (`POST /channels/{id}/messages/bulk-delete`, guild channels
 * only): MESSAGE_DELETE_BULK `{ids, channel_id, guild_id}`, to the same audience.
 */
export const channelMessagesBulkDeleted = z.object({
  ...channelMessageAudience,
  /** The messages deleted (those of the request that were there), in the request's order. */
  message_ids: z.array(snowflake),
});

/**
 * A user or bot said it is typing (`POST /channels/{id}/typing`): TYPING_START `{channel_id,
 * guild_id?, user_id, timestamp}` (timestamp in unix seconds) to the users who may view the
 * channel and the bots that may (GUILD_MESSAGE_TYPING, DIRECT_MESSAGE_TYPING).
 */
export const typingStarted = z.object({
  ...channelMessageAudience,
  user_id: snowflake,
  /** Unix seconds, as TYPING_START carries it. */
  timestamp: z.number().int().nonnegative(),
});

/** A reaction's emoji (a partial emoji object: `id` null for a Unicode emoji). */
const reactionEmoji = z.object({ id: snowflake.nullable(), name: z.string() });

/**
 * A user reacted to a message: MESSAGE_REACTION_ADD to the users who may view the channel
 * and to the guild's bots that may (GUILD_MESSAGE_REACTIONS; DIRECT_MESSAGE_REACTIONS in a DM).
 */
export const reactionAdded = z.object({
  ...channelMessageAudience,
  message_id: snowflake,
  user_id: snowflake,
  emoji: reactionEmoji,
  /** The reacted message's author. */
  message_author_id: snowflake.nullable(),
});

/** A user's reaction went (theirs, or removed by a moderator): MESSAGE_REACTION_REMOVE. */
export const reactionRemoved = z.object({
  ...channelMessageAudience,
  message_id: snowflake,
  user_id: snowflake,
  emoji: reactionEmoji,
});

/** Every reaction of a message went: MESSAGE_REACTION_REMOVE_ALL. */
export const reactionsRemovedAll = z.object({ ...channelMessageAudience, message_id: snowflake });

/** Every reaction of one emoji went: MESSAGE_REACTION_REMOVE_EMOJI. */
export const reactionsRemovedEmoji = z.object({
  ...channelMessageAudience,
  message_id: snowflake,
  emoji: reactionEmoji,
});
