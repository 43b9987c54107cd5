import { callApi, describeError, type ApiAnswer } from '../http/call-api';
import type { DiscordMessage } from './types';

/** A lobby as `PUT /lobbies` and `GET /lobbies/{id}` answer it (Discord's lobby object). */
export interface DiscordLobby {
  id: string;
  application_id: string;
  metadata: Record<string, string> | null;
  members: { id: string; metadata: Record<string, string> | null; flags: number }[];
  // Discord's other fields (linked_channel, flags, …).
  [field: string]: unknown;
}

/** What a world needs to make its players act. */
export interface PlayerContext {
  readonly base: string;
  note(line: string): void;
}

/**
 * A game's player who has no chat account: a provisional account of the world's app
 * (Social SDK), made by the Bot Token Endpoint from the player's id in the game. It acts
 * with its Bearer token as the game's client does: its user, lobbies and their messages.
 */
export class WorldPlayer {
  /** @internal built by World.player */
  constructor(
    private readonly world: PlayerContext,
    /** The provisional account's user id. */
    readonly id: string,
    /** The player's id in the game (`external_user_id`). */
    readonly externalUserId: string,
    /** `Authorization` value of the player's access token (`Bearer …`, 7 days). */
    readonly token: string,
  ) {}

  /** The player as `GET /users/@me` answers it (a provisional account: public flag 1 << 23). */
  async me(): Promise<Record<string, unknown>> {
    return this.expect(200, 'GET', '/users/@me');
  }

  /**
   * Joins the app's lobby of `secret`, creating it when no lobby has that secret
   * (`PUT /lobbies`, the SDK's create-or-join); answers the lobby with its members.
   */
  async joinLobby(
    secret: string,
    options: { metadata?: Record<string, string>; memberMetadata?: Record<string, string> } = {},
  ): Promise<DiscordLobby> {
    const lobby = await this.expect(200, 'PUT', '/lobbies', {
      secret,
      ...(options.metadata ? { lobby_metadata: options.metadata } : {}),
      ...(options.memberMetadata ? { member_metadata: options.memberMetadata } : {}),
    });
    this.world.note(`${this.externalUserId} joined lobby ${lobby.id} ("${secret}")`);
    return lobby;
  }

  /** Leaves a lobby (`DELETE /lobbies/{id}/members/@me`). */
  async leaveLobby(lobby: string | { id: string }): Promise<void> {
    const id = typeof lobby === 'string' ? lobby : lobby.id;
    await this.expect(204, 'DELETE', `/lobbies/${id}/members/@me`);
    this.world.note(`${this.externalUserId} left lobby ${id}`);
  }

  /** Posts a message to a lobby the player is in. */
  async sendLobbyMessage(lobby: string | { id: string }, content: string): Promise<DiscordMessage> {
    const id = typeof lobby === 'string' ? lobby : lobby.id;
    const message = await this.expect(201, 'POST', `/lobbies/${id}/messages`, { content });
    this.world.note(`${this.externalUserId} in lobby ${id}: ${content}`);
    return message;
  }

  /** A lobby's messages, newest first (`limit` 1-200, default 50). */
  async lobbyMessages(lobby: string | { id: string }, { limit = 50 }: { limit?: number } = {}) {
    const id = typeof lobby === 'string' ? lobby : lobby.id;
    return (await this.expect(200, 'GET', `/lobbies/${id}/messages?limit=${limit}`)) as DiscordMessage[];
  }

  /** Any public API call with the player's token: `{status, body}`, never a throw on a status. */
  call(method: string, route: string, body?: unknown): Promise<ApiAnswer> {
    return callApi(this.world.base, method, `/api/v10${route}`, { token: this.token, body });
  }

  // Discord's JSON of any shape: callers read fields off it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async expect(status: number, method: string, route: string, body?: unknown): Promise<any> {
    const answer = await this.call(method, route, body);
    if (answer.status !== status)
      throw new Error(
        `${method} ${route} as player ${this.externalUserId} failed:\n${describeError(answer)}`,
      );
    return answer.body;
  }
}
