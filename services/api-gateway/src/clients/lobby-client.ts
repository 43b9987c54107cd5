import type { lobby } from '@acs/protos';
import type { Principal } from '../domain/principal';
import { callPeer } from '@acs/service-kit';
import { checkServing } from './check-serving';

/** The lobby RPCs, each taking a `LobbyCall` and answering JSON text ('' for 204). */
export type LobbyMethod =
  | 'CreateLobby'
  | 'CreateOrJoinLobby'
  | 'GetLobby'
  | 'UpdateLobby'
  | 'DeleteLobby'
  | 'PutMember'
  | 'RemoveMember'
  | 'BulkUpdateMembers'
  | 'CreateMessage'
  | 'ListMessages'
  | 'LinkChannel'
  | 'SetModerationMetadata';

/** What a lobby route passes on: path parameters, body and `limit` as sent ('' when absent). */
export interface LobbyRequest {
  lobbyId?: string;
  userId?: string;
  messageId?: string;
  bodyJson?: string;
  limit?: string;
}

/**
 * What api-gateway asks of lobby: one call per route, with the caller it authenticated.
 * Answers are lobby's JSON text, passed on as is; lobby's own errors (10031, 10013, 50035,
 * 50001…) reject with that DiscordError, a failure in transport with 503 or 504.
 */
export interface LobbyClient {
  isServing(deadlineMs: number): Promise<boolean>;
  call(method: LobbyMethod, caller: Principal, request: LobbyRequest): Promise<string>;
}

/** The LobbyClient over lobby's gRPC client. */
export function createLobbyClient(client: lobby.LobbyServiceClient): LobbyClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),
    async call(method, caller, request) {
      const wire: lobby.LobbyCall = {
        caller: {
          application_id: caller.applicationId,
          user_id: caller.userId,
          bot: caller.kind === 'bot',
        },
        lobby_id: request.lobbyId ?? '',
        user_id: request.userId ?? '',
        message_id: request.messageId ?? '',
        body_json: request.bodyJson ?? '',
        limit: request.limit ?? '',
      };
      const rpc = client[method] as unknown as Parameters<
        typeof callPeer<lobby.LobbyCall, lobby.LobbyAnswer__Output>
      >[1];
      const answer = await callPeer(client, rpc, wire);
      return answer.json;
    },
  };
}
