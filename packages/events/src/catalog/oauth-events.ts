import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/**
 * A consent installed an application (APPLICATION_AUTHORIZED, D:events/webhook-events.mdx):
 * in a guild (`integration_type` 0, with `guild_id`) or for a user (1).
 */
export const applicationAuthorized = z.object({
  application_id: snowflake,
  integration_type: z.union([z.literal(0), z.literal(1)]),
  user_id: snowflake,
  /** Every scope consented to. */
  scopes: z.array(z.string()),
  guild_id: snowflake.optional(),
});

/**
 * An authorization ended (APPLICATION_DEAUTHORIZED): a user's (`user_id`, and
 * `integration_type` 1 when their user install went with it), or a guild installation
 * (`integration_type` 0 with `guild_id`: the bot was removed from the guild).
 */
export const applicationDeauthorized = z.object({
  application_id: snowflake,
  user_id: snowflake.optional(),
  integration_type: z.union([z.literal(0), z.literal(1)]).optional(),
  guild_id: snowflake.optional(),
});

/** The bot token was reset: the old one fails from now on. */
export const applicationBotTokenReset = z.object({ application_id: snowflake });

/**
 * What resolved principals of the application carry changed, or some of its tokens died
 * without a user's deauthorization: caches of resolved tokens drop the application.
 */
export const applicationCredentialsChanged = z.object({
  application_id: snowflake,
  changed: z.array(z.enum(['flags', 'owner_id', 'public_client', 'tokens_revoked'])).min(1),
});

/**
 * Something an invocation reads of the application changed (any admin PATCH: its
 * interactions endpoint, name, flags, integration types; its event webhooks disabled):
 * caches of the application's invocation facts drop it.
 */
export const applicationUpdated = z.object({ application_id: snowflake });

/**
 * A provisional account was merged into a full account of the application (facts A.4):
 * its identities are the full account's now and its tokens are revoked; what it had
 * elsewhere (lobby memberships) moves to the full account asynchronously.
 */
export const userMerged = z.object({
  /**
   * The merge's id, minted by the code exchange: USER_MERGE_OPERATION_COMPLETED's
   * `merge_operation_id`. Absent from the events written before it existed, which a
   * stream may still hold after an upgrade: their merge is named by `source_user_id` (a
   * provisional account is merged once).
   */
  merge_operation_id: snowflake.optional(),
  application_id: snowflake,
  source_user_id: snowflake,
  destination_user_id: snowflake,
});

/**
 * A game identity was cut from its full account (an unmerge route, or a ban's unmerge; facts
 * A.4b, A.5): a new provisional account holds it now; the full account's active lobby
 * memberships of the application are copied to it asynchronously.
 */
export const userUnmerged = z.object({
  application_id: snowflake,
  full_user_id: snowflake,
  provisional_user_id: snowflake,
});

/**
 * A user's profile changed (a provisional account renamed, an admin update of their name,
 * locale, privacy or primary guild): USER_UPDATE to their sessions.
 */
export const userUpdated = z.object({ user_id: snowflake });

/**
 * A user was deleted (DELETE /admin/users/{id}): their tokens, sessions and grants are gone;
 * their gateway sessions end (4004).
 */
export const userDeleted = z.object({ user_id: snowflake });

/**
 * A user was banned (POST /admin/users/{id}/ban): their tokens, codes and sessions are
 * revoked in the ban's transaction; their gateway sessions end (4004) on every replica.
 */
export const userBanned = z.object({ user_id: snowflake });
