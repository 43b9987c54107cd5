import type { lobby } from '@acs/protos';
import { DiscordError, parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import type { OAuthClient } from '../clients/oauth-client';
import type { PermissionsClient } from '../clients/permissions-client';
import { UnknownUserError } from '../domain/lobby-errors';
import { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT } from '../domain/lobby-limits';
import { renderLobby, renderMember, type JsonRecord } from '../domain/lobby-objects';
import {
  readBulkBody,
  readHistoryLimit,
  readJoinBody,
  readLinkBody,
  readLobbyBody,
  readMemberBody,
  readMessageBody,
  readModerationBody,
} from '../domain/read-lobby-bodies';
import type { LobbyStore } from '../store/lobby-store';

/** What the lobby handlers need. */
export interface LobbyHandlerDeps {
  lobbies: LobbyStore;
  oauth: OAuthClient;
  permissions: PermissionsClient;
}

/** Who calls, as api-gateway resolved it. */
interface Caller {
  applicationId: string;
  userId: string;
  bot: boolean;
}

/** What every request carries: its caller. */
type CallerField = { caller?: lobby.Caller__Output | null };

/** Unknown User, as oauth answers a user id it does not know. */
const UNKNOWN_USER = 10013;

/** The path's `@me` of DELETE …/members/@me: the caller. */
const ME = '@me';

/**
 * The lobby routes (FACTS §13): each reads the caller api-gateway authenticated (its
 * route decides which principals it takes), reads the path and body, and answers Discord's
 * JSON. Members named by id must be users (404 / 10013, asked of oauth before anything is
 * written); a lobby of another application is unknown (404 / 10031).
 */
export function createLobbyHandlers({ lobbies, oauth, permissions }: LobbyHandlerDeps) {
  /** Every id is a user oauth knows: 404 / 10013 otherwise. */
  async function assertUsers(ids: string[]): Promise<void> {
    await Promise.all(
      [...new Set(ids)].map((id) =>
        oauth.getPublicUser(id).catch((error: unknown) => {
          if (error instanceof DiscordError && error.code === UNKNOWN_USER) throw new UnknownUserError();
          throw error;
        }),
      ),
    );
  }

  return {
    async CreateLobby(req: lobby.CreateLobbyRequest__Output): Promise<lobby.CreateLobbyResponse> {
      const caller = callerOf(req);
      const input = readLobbyBody(parseJsonBody(req.body_json));
      await assertUsers((input.members ?? []).map((m) => m.id));
      return { lobby_json: JSON.stringify(renderLobby(await lobbies.create(caller.applicationId, input))) };
    },

    async CreateOrJoinLobby(
      req: lobby.CreateOrJoinLobbyRequest__Output,
    ): Promise<lobby.CreateOrJoinLobbyResponse> {
      const caller = callerOf(req);
      const input = readJoinBody(parseJsonBody(req.body_json));
      const joined = await lobbies.join(caller.applicationId, caller.bot ? null : caller.userId, input);
      return { lobby_json: JSON.stringify(renderLobby(joined)) };
    },

    async GetLobby(req: lobby.GetLobbyRequest__Output): Promise<lobby.GetLobbyResponse> {
      const caller = callerOf(req);
      return {
        lobby_json: JSON.stringify(renderLobby(await lobbies.get(caller.applicationId, lobbyIdOf(req)))),
      };
    },

    async UpdateLobby(req: lobby.UpdateLobbyRequest__Output): Promise<lobby.UpdateLobbyResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const input = readLobbyBody(parseJsonBody(req.body_json));
      await assertUsers((input.members ?? []).map((m) => m.id));
      return {
        lobby_json: JSON.stringify(renderLobby(await lobbies.update(caller.applicationId, lobbyId, input))),
      };
    },

    async DeleteLobby(req: lobby.DeleteLobbyRequest__Output): Promise<lobby.DeleteLobbyResponse> {
      const caller = callerOf(req);
      await lobbies.remove(caller.applicationId, lobbyIdOf(req));
      return {};
    },

    async PutMember(req: lobby.PutMemberRequest__Output): Promise<lobby.PutMemberResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const userId = readPathSnowflake('user_id', req.user_id);
      const member = readMemberBody(parseJsonBody(req.body_json), userId);
      await lobbies.get(caller.applicationId, lobbyId);
      await assertUsers([userId]);
      return {
        member_json: JSON.stringify(
          renderMember(await lobbies.putMember(caller.applicationId, lobbyId, member)),
        ),
      };
    },

    async RemoveMember(req: lobby.RemoveMemberRequest__Output): Promise<lobby.RemoveMemberResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const userId = req.user_id === ME ? caller.userId : readPathSnowflake('user_id', req.user_id);
      await lobbies.removeMember(caller.applicationId, lobbyId, userId);
      return {};
    },

    async BulkUpdateMembers(
      req: lobby.BulkUpdateMembersRequest__Output,
    ): Promise<lobby.BulkUpdateMembersResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const members = readBulkBody(parseJsonBody(req.body_json));
      await lobbies.get(caller.applicationId, lobbyId);
      await assertUsers(members.filter((m) => !m.remove).map((m) => m.id));
      const upserted = await lobbies.bulk(caller.applicationId, lobbyId, members);
      return { members_json: JSON.stringify(upserted.map(renderMember)) };
    },

    async CreateMessage(req: lobby.CreateMessageRequest__Output): Promise<lobby.CreateMessageResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const input = readMessageBody(parseJsonBody(req.body_json));
      const user = await oauth.getPublicUser(caller.userId);
      const message = await lobbies.createMessage(
        caller.applicationId,
        lobbyId,
        { userId: caller.userId, user, bot: caller.bot },
        input,
      );
      return { message_json: JSON.stringify(message) };
    },

    async ListMessages(req: lobby.ListMessagesRequest__Output): Promise<lobby.ListMessagesResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const limit = readHistoryLimit(req.limit, MAX_HISTORY_LIMIT, DEFAULT_HISTORY_LIMIT);
      return { messages_json: await lobbies.listMessages(caller.applicationId, lobbyId, caller, limit) };
    },

    async LinkChannel(req: lobby.LinkChannelRequest__Output): Promise<lobby.LinkChannelResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const { channelId } = readLinkBody(parseJsonBody(req.body_json));
      // Membership and CanLinkLobby first: a caller who may not link learns nothing of the channel.
      await lobbies.assertMayLink(caller.applicationId, lobbyId, caller.userId);
      const link = channelId === null ? null : await permissions.linkableChannel(channelId, caller.userId);
      return {
        lobby_json: JSON.stringify(
          renderLobby(await lobbies.link(caller.applicationId, lobbyId, caller.userId, link)),
        ),
      };
    },

    async SetModerationMetadata(
      req: lobby.SetModerationMetadataRequest__Output,
    ): Promise<lobby.SetModerationMetadataResponse> {
      const caller = callerOf(req);
      const lobbyId = lobbyIdOf(req);
      const messageId = readPathSnowflake('message_id', req.message_id);
      const metadata = readModerationBody(parseJsonBody(req.body_json));
      await lobbies.setModeration(caller.applicationId, lobbyId, messageId, metadata);
      return {};
    },
  };
}

function callerOf(req: CallerField): Caller {
  const caller = req.caller;
  if (!caller || caller.application_id === '' || caller.user_id === '') {
    throw new DiscordError(401, 0, '401: Unauthorized');
  }
  return { applicationId: caller.application_id, userId: caller.user_id, bot: caller.bot };
}

function lobbyIdOf(req: { lobby_id: string }): string {
  return readPathSnowflake('lobby_id', req.lobby_id);
}

export type { JsonRecord };
