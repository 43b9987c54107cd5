import type { lobby } from '@acs/protos';
import { callPeer } from '@acs/service-kit';
import type { Principal } from '../domain/principal';
import { checkServing } from './check-serving';

/**
 * What api-gateway asks of lobby: one method per RPC, with the caller it authenticated and
 * the path parameters, body and `limit` as sent (lobby validates them all). Answers are
 * lobby's JSON text, passed on as is; lobby's own errors (10031, 10013, 50035, 50001…)
 * reject with that DiscordError, a failure in transport with 503 or 504.
 */
export interface LobbyClient {
  isServing(deadlineMs: number): Promise<boolean>;
  /** POST /lobbies: the lobby. */
  createLobby(caller: Principal, bodyJson: string): Promise<string>;
  /** PUT /lobbies (create or join by `secret`): the lobby. */
  createOrJoinLobby(caller: Principal, bodyJson: string): Promise<string>;
  getLobby(caller: Principal, lobbyId: string): Promise<string>;
  updateLobby(caller: Principal, lobbyId: string, bodyJson: string): Promise<string>;
  deleteLobby(caller: Principal, lobbyId: string): Promise<void>;
  /** PUT …/members/{user_id}: the lobby member. */
  putMember(caller: Principal, lobbyId: string, userId: string, bodyJson: string): Promise<string>;
  /** DELETE …/members/{user_id}; `userId` '@me' is the caller. */
  removeMember(caller: Principal, lobbyId: string, userId: string): Promise<void>;
  /** POST …/members/bulk: the upserted members (a JSON array). */
  bulkUpdateMembers(caller: Principal, lobbyId: string, bodyJson: string): Promise<string>;
  /** POST …/messages: the message. */
  createMessage(caller: Principal, lobbyId: string, bodyJson: string): Promise<string>;
  /** GET …/messages with `limit` as sent ('' when absent): the messages, newest first. */
  listMessages(caller: Principal, lobbyId: string, limit: string): Promise<string>;
  /** PATCH …/channel-linking: the lobby. */
  linkChannel(caller: Principal, lobbyId: string, bodyJson: string): Promise<string>;
  /** PUT …/messages/{message_id}/moderation-metadata. */
  setModerationMetadata(
    caller: Principal,
    lobbyId: string,
    messageId: string,
    bodyJson: string,
  ): Promise<void>;
}

/** The caller as lobby's requests name it. */
function wireCaller(caller: Principal): lobby.Caller {
  return { application_id: caller.applicationId, user_id: caller.userId, bot: caller.kind === 'bot' };
}

/** The LobbyClient over lobby's gRPC client. */
export function createLobbyClient(client: lobby.LobbyServiceClient): LobbyClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),

    async createLobby(caller, bodyJson) {
      const answer = await callPeer(client, client.CreateLobby, {
        caller: wireCaller(caller),
        body_json: bodyJson,
      });
      return answer.lobby_json;
    },

    async createOrJoinLobby(caller, bodyJson) {
      const answer = await callPeer(client, client.CreateOrJoinLobby, {
        caller: wireCaller(caller),
        body_json: bodyJson,
      });
      return answer.lobby_json;
    },

    async getLobby(caller, lobbyId) {
      const answer = await callPeer(client, client.GetLobby, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
      });
      return answer.lobby_json;
    },

    async updateLobby(caller, lobbyId, bodyJson) {
      const answer = await callPeer(client, client.UpdateLobby, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        body_json: bodyJson,
      });
      return answer.lobby_json;
    },

    async deleteLobby(caller, lobbyId) {
      await callPeer(client, client.DeleteLobby, { caller: wireCaller(caller), lobby_id: lobbyId });
    },

    async putMember(caller, lobbyId, userId, bodyJson) {
      const answer = await callPeer(client, client.PutMember, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        user_id: userId,
        body_json: bodyJson,
      });
      return answer.member_json;
    },

    async removeMember(caller, lobbyId, userId) {
      await callPeer(client, client.RemoveMember, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        user_id: userId,
      });
    },

    async bulkUpdateMembers(caller, lobbyId, bodyJson) {
      const answer = await callPeer(client, client.BulkUpdateMembers, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        body_json: bodyJson,
      });
      return answer.members_json;
    },

    async createMessage(caller, lobbyId, bodyJson) {
      const answer = await callPeer(client, client.CreateMessage, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        body_json: bodyJson,
      });
      return answer.message_json;
    },

    async listMessages(caller, lobbyId, limit) {
      const answer = await callPeer(client, client.ListMessages, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        limit,
      });
      return answer.messages_json;
    },

    async linkChannel(caller, lobbyId, bodyJson) {
      const answer = await callPeer(client, client.LinkChannel, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        body_json: bodyJson,
      });
      return answer.lobby_json;
    },

    async setModerationMetadata(caller, lobbyId, messageId, bodyJson) {
      await callPeer(client, client.SetModerationMetadata, {
        caller: wireCaller(caller),
        lobby_id: lobbyId,
        message_id: messageId,
        body_json: bodyJson,
      });
    },
  };
}
