import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/**
 * Who a lobby's events go to: its application (webhook events, for messages) and the
 * users who are its members once the change is made, plus those it removed (their
 * sessions learn they left). UD:gateway/gateway-events.mdx §Lobbies.
 */
const lobbyAudience = {
  application_id: snowflake,
  lobby_id: snowflake,
  /** The user ids whose gateway sessions receive the event. */
  user_ids: z.array(snowflake),
};

/** A JSON object as the API renders it (lobby, member, message). */
const object = z.record(z.string(), z.unknown());

/** A lobby was created (POST /lobbies, PUT /lobbies creating): LOBBY_CREATE with the gateway lobby. */
export const lobbyCreated = z.object({ ...lobbyAudience, lobby: object });

/** A lobby changed (PATCH, PUT /lobbies joining with lobby_metadata, channel linking): LOBBY_UPDATE. */
export const lobbyUpdated = lobbyCreated;

/** A lobby ended (DELETE, idle timeout) or its users left it: LOBBY_DELETE `{id, reason}`. */
export const lobbyDeleted = z.object({
  ...lobbyAudience,
  /** `deleted` (the lobby ended) or `removed` (these users were removed or left). */
  reason: z.enum(['deleted', 'removed']),
});

/** A member joined, changed or left: LOBBY_MEMBER_ADD / _UPDATE / _REMOVE `{member, lobby_id, application_id}`. */
export const lobbyMemberChanged = z.object({
  ...lobbyAudience,
  change: z.enum(['added', 'updated', 'removed']),
  member: object,
});

/** The guild channel a lobby is linked to, when it is. */
const linkedChannel = z.object({ guild_id: snowflake, channel_id: snowflake }).nullable();

/**
 * A message was sent to a lobby: LOBBY_MESSAGE_CREATE to its members' sessions and, where
 * the application subscribed, as a webhook event (to `override_event_webhooks_url` when
 * the lobby has one). When the lobby is linked, interactions posts it to the channel.
 */
export const lobbyMessageCreated = z.object({
  ...lobbyAudience,
  message: object,
  override_event_webhooks_url: z.string().nullable(),
  linked_channel: linkedChannel,
});

/** A lobby message changed (moderation metadata): LOBBY_MESSAGE_UPDATE, same routes. */
export const lobbyMessageUpdated = lobbyMessageCreated;

/**
 * A merge's lobby side is done (oauth's `oauth.user.merged`: the provisional account's lobby
 * memberships moved to the full account, written in the move's transaction): the merge is
 * complete, USER_MERGE_OPERATION_COMPLETED `{merge_operation_id, source_user_id}` to the full
 * account's sessions (UD:gateway/gateway-events.mdx; facts A.4).
 */
export const mergeCompleted = z.object({
  merge_operation_id: snowflake,
  application_id: snowflake,
  source_user_id: snowflake,
  destination_user_id: snowflake,
});
