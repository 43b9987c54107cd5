import type { interactions } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import type { OAuthClient } from '../clients/oauth-client';
import type { PermissionsClient } from '../clients/permissions-client';
import { readReactionEmoji, readReactionsQuery } from '../domain/reactions';
import type { ChannelPlace } from '../store/channel-message-store';
import type { ReactionStore } from '../store/reaction-store';

/** What the reaction handlers need. */
export interface ReactionHandlerDeps {
  permissions: PermissionsClient;
  oauth: OAuthClient;
  reactions: ReactionStore;
}

/**
 * The reaction routes (D:resources/message.mdx §Create Reaction, §Delete Own Reaction, §Delete
 * User Reaction, §Get Reactions, §Delete All Reactions, §Delete All Reactions for Emoji): the
 * ids and the emoji are read first, then permissions says what the caller may do in the
 * channel, and the store applies the rules (src/domain/reactions) with its event.
 */
export function createReactionHandlers({ permissions, oauth, reactions }: ReactionHandlerDeps) {
  async function placeOf(
    req: interactions.ReactionRequest__Output,
  ): Promise<{ place: ChannelPlace; messageId: string }> {
    const channelId = readPathSnowflake('channel_id', req.channel_id);
    const messageId = readPathSnowflake('message_id', req.message_id);
    const userId = readPathSnowflake('user_id', req.user_id);
    const access = await permissions.describeChannelAccess(channelId, userId);
    return { place: { channelId, caller: { userId, applicationId: null }, access }, messageId };
  }

  return {
    async AddReaction(req: interactions.ReactionRequest__Output): Promise<interactions.ReactionResponse> {
      const emoji = readReactionEmoji(req.emoji);
      const { place, messageId } = await placeOf(req);
      await reactions.add(place, messageId, emoji);
      return {};
    },

    async RemoveReaction(req: interactions.ReactionRequest__Output): Promise<interactions.ReactionResponse> {
      const emoji = readReactionEmoji(req.emoji);
      const target = readPathSnowflake('user_id', req.target_user_id);
      const { place, messageId } = await placeOf(req);
      await reactions.remove(place, messageId, emoji, target);
      return {};
    },

    async RemoveReactions(req: interactions.ReactionRequest__Output): Promise<interactions.ReactionResponse> {
      const emoji = req.emoji === '' ? undefined : readReactionEmoji(req.emoji);
      const { place, messageId } = await placeOf(req);
      await reactions.removeAll(place, messageId, emoji);
      return {};
    },

    async ListReactionUsers(
      req: interactions.ReactionRequest__Output,
    ): Promise<interactions.ListReactionUsersResponse> {
      const emoji = readReactionEmoji(req.emoji);
      const query = readReactionsQuery({
        type: req.type,
        after: req.after === '' ? '' : readPathSnowflake('after', req.after),
        limit: req.limit,
      });
      const { place, messageId } = await placeOf(req);
      const ids = await reactions.users(place, messageId, emoji, query);
      const users = await oauth.users(ids);
      return { users_json: JSON.stringify(ids.flatMap((id) => users.get(id) ?? [])) };
    },
  };
}
