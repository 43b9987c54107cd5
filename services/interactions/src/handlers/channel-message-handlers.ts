import type { interactions } from '@acs/protos';
import { UnauthorizedError, parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { isJsonObject } from '@acs/validation';
import type { OAuthClient } from '../clients/oauth-client';
import type { PermissionsClient } from '../clients/permissions-client';
import {
  authorIdOf,
  assertMayReadMessage,
  assertMayType,
  mayReadHistory,
  mentionedRoleIds,
  mentionedUserIds,
  readBulkDelete,
  readCreateMessage,
  readMentionPolicy,
  readMessagesQuery,
  type Caller,
} from '../domain/channel-messages';
import { validateMessageEdit } from '../domain/messages';
import type { ChannelMessageStore, ChannelPlace } from '../store/channel-message-store';
import type { ReactionStore } from '../store/reaction-store';
import type { AutoModStore } from '../store/automod-store';
import { passAutoMod } from './automod-gate';
import { uploadedFilesOf } from './uploaded-files';

/** What the channel message handlers need. */
export interface ChannelMessageHandlerDeps {
  permissions: PermissionsClient;
  oauth: OAuthClient;
  channelMessages: ChannelMessageStore;
  /** Sets `me` on the reactions of the messages a reader reads. */
  reactions: ReactionStore;
  /** The guilds' AutoMod rules, which judge a member's message before it is written. */
  automod: AutoModStore;
}

/**
 * The channel message routes (D:resources/message.mdx): `POST`/`GET /channels/{id}/messages`,
 * `GET`/`PATCH`/`DELETE /channels/{id}/messages/{id}`, `POST …/messages/bulk-delete`, for a bot or a user's session. The
 * body is read first (a bad body is refused before anything is asked), then permissions says
 * where the channel is and what the caller may do there (404 / 10003 for an unknown channel),
 * oauth who the author and the mentioned users are, and the store plans and applies.
 */
export function createChannelMessageHandlers({
  permissions,
  oauth,
  channelMessages,
  reactions,
  automod,
}: ChannelMessageHandlerDeps) {
  async function placeOf(req: CallerRequest): Promise<ChannelPlace> {
    const channelId = readPathSnowflake('channel_id', req.channel_id);
    const caller = callerOf(req);
    const access = await permissions.describeChannelAccess(channelId, caller.userId);
    return { channelId, caller, access };
  }

  /** The place of a Create Message, with the sender's member and the guild roles `roleIds` names. */
  async function senderPlaceOf(req: CallerRequest, roleIds: readonly string[]) {
    const channelId = readPathSnowflake('channel_id', req.channel_id);
    const caller = callerOf(req);
    const sender = await permissions.describeSenderAccess(channelId, caller.userId, roleIds);
    const place: ChannelPlace = { channelId, caller, access: sender.access };
    return { place, member: sender.member, knownRoleIds: sender.knownRoleIds };
  }

  return {
    async CreateChannelMessage(
      req: interactions.ChannelMessageRequest__Output,
    ): Promise<interactions.MessageResponse> {
      const channelId = readPathSnowflake('channel_id', req.channel_id);
      const request = readCreateMessage(parseJsonBody(req.body_json), uploadedFilesOf(req.files), channelId);
      const mentionIds = mentionedUserIds(request.input.content, request.mentions);
      const roleIds = mentionedRoleIds(request.input.content, request.mentions);
      const [{ place, member, knownRoleIds }, users] = await Promise.all([
        senderPlaceOf(req, roleIds),
        oauth.users([...new Set([req.user_id, ...mentionIds])]),
      ]);
      const { forward } = request;
      const sourceAccess =
        forward && forward.channelId !== channelId
          ? await permissions.describeChannelAccess(forward.channelId, place.caller.userId)
          : undefined;
      const author = users.get(place.caller.userId);
      // The caller's token resolved to this user a moment ago: a user deleted since has no token.
      if (!author) throw new UnauthorizedError();
      const { alsoWrite } = await passAutoMod({ automod, permissions }, place, author, request.input.content);
      const message = await channelMessages.create({
        ...place,
        request,
        author,
        mentionedUsers: found(users, mentionIds),
        mentionedRoleIds: knownRoleIds,
        member,
        baseUrl: req.attachment_base_url,
        ...(sourceAccess ? { sourceAccess } : {}),
        applicationFlags: Number(req.application_flags),
        ...(alsoWrite ? { alsoWrite } : {}),
      });
      return { message_json: JSON.stringify(message) };
    },

    async ListChannelMessages(
      req: interactions.ListChannelMessagesRequest__Output,
    ): Promise<interactions.ListChannelMessagesResponse> {
      const query = readMessagesQuery({
        around: req.around === '' ? '' : readPathSnowflake('around', req.around),
        before: req.before === '' ? '' : readPathSnowflake('before', req.before),
        after: req.after === '' ? '' : readPathSnowflake('after', req.after),
        limit: req.limit,
      });
      const place = await placeOf(req);
      // Without READ_MESSAGE_HISTORY the list is empty, not an error (D §Get Channel Messages).
      if (!mayReadHistory(place.access)) return { messages_json: '[]' };
      const page = await channelMessages.list(place.channelId, query);
      return { messages_json: JSON.stringify(await reactions.seenBy(place.caller.userId, page)) };
    },

    async GetChannelMessage(
      req: interactions.ChannelMessageRequest__Output,
    ): Promise<interactions.MessageResponse> {
      const messageId = readPathSnowflake('message_id', req.message_id);
      const place = await placeOf(req);
      assertMayReadMessage(place.access);
      const message = await channelMessages.get(place.channelId, messageId);
      const [seen] = await reactions.seenBy(place.caller.userId, [message]);
      return { message_json: JSON.stringify(seen) };
    },

    async EditChannelMessage(
      req: interactions.ChannelMessageRequest__Output,
    ): Promise<interactions.MessageResponse> {
      const messageId = readPathSnowflake('message_id', req.message_id);
      const body = parseJsonBody(req.body_json);
      const edit = validateMessageEdit(body, [], uploadedFilesOf(req.files));
      const policy = readMentionPolicy(isJsonObject(body) ? body.allowed_mentions : undefined);
      const mentionIds = edit.content === undefined ? [] : mentionedUserIds(edit.content, policy);
      const [place, users] = await Promise.all([placeOf(req), oauth.users(mentionIds)]);
      // AutoMod judges the new content of the author's own message (others' edits change flags only).
      const own =
        edit.content === undefined ? undefined : await channelMessages.get(place.channelId, messageId);
      const { alsoWrite } =
        own && edit.content !== undefined && authorIdOf(own) === place.caller.userId
          ? await passAutoMod({ automod, permissions }, place, own.author, edit.content)
          : {};
      const message = await channelMessages.edit({
        ...place,
        messageId,
        edit,
        policy,
        mentionedUsers: found(users, mentionIds),
        baseUrl: req.attachment_base_url,
        ...(alsoWrite ? { alsoWrite } : {}),
      });
      return { message_json: JSON.stringify(message) };
    },

    async BulkDeleteChannelMessages(
      req: interactions.ChannelMessageRequest__Output,
    ): Promise<interactions.DeleteChannelMessageResponse> {
      const ids = readBulkDelete(parseJsonBody(req.body_json), new Date());
      await channelMessages.bulkRemove(await placeOf(req), ids);
      return {};
    },

    async TriggerTyping(
      req: interactions.ChannelMessageRequest__Output,
    ): Promise<interactions.DeleteChannelMessageResponse> {
      const place = await placeOf(req);
      assertMayType(place.access);
      await channelMessages.typing(place, new Date());
      return {};
    },

    async DeleteChannelMessage(
      req: interactions.ChannelMessageRequest__Output,
    ): Promise<interactions.DeleteChannelMessageResponse> {
      const messageId = readPathSnowflake('message_id', req.message_id);
      const place = await placeOf(req);
      await channelMessages.remove(place, messageId);
      return {};
    },
  };
}

/** What a channel route's request says of where and who. */
interface CallerRequest {
  channel_id: string;
  user_id: string;
  application_id?: string;
}

/** The caller of a channel route: the user, and the bot's application when a bot calls. */
function callerOf(req: CallerRequest): Caller {
  return {
    userId: readPathSnowflake('user_id', req.user_id),
    applicationId:
      req.application_id === undefined || req.application_id === ''
        ? null
        : readPathSnowflake('application_id', req.application_id),
  };
}

/** The users of `ids` that oauth found, in that order. */
function found<T>(users: ReadonlyMap<string, T>, ids: readonly string[]): T[] {
  return ids.flatMap((id) => {
    const user = users.get(id);
    return user === undefined ? [] : [user];
  });
}
